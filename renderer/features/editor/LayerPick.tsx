import type { CSSProperties, ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { Icon, type IconName } from '../../components/Icon';
import { useT } from '../../i18n/i18n';

const KIND_ICONS: Record<Layer['kind'], IconName> = {
  text: 'file',
  image: 'image',
  shape: 'grid',
  qr: 'table',
  barcode: 'barcode',
  list: 'layers',
  stack: 'folder',
};

/** A layer's row in the layers panel: its kind, its name, a chip when it shows only sometimes. */
export function LayerPick({
  layer,
  selected,
  problem,
  parent,
  style,
  onPick,
}: {
  layer: Layer;
  selected: boolean;
  problem: string | undefined;
  /** The stack it is in, for a layer inside one. */
  parent?: string;
  style?: CSSProperties;
  onPick: () => void;
}): ReactElement {
  const t = useT();
  return (
    <button
      type="button"
      className="ed-layer-pick"
      style={style}
      aria-pressed={selected}
      data-layer={layer.id}
      data-parent={parent}
      onClick={onPick}
    >
      <Icon name={KIND_ICONS[layer.kind]} size={14} />
      <span className="grow ed-layer-name">{layer.id}</span>
      {layer.visibleWhen ? (
        <span className="chip" title={t('editor.layer.conditional')}>
          {t('editor.layer.if')}
        </span>
      ) : null}
      {problem ? <Icon name="alert" size={14} label={problem} /> : null}
    </button>
  );
}
