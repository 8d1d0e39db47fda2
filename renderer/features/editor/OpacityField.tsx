import type { ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { useT } from '../../i18n/i18n';
import { NumberField } from './inspector-fields';
import { useLayerEdit } from './use-layer-edit';

/** A layer's opacity in percent; 100 % is no opacity property at all. */
export function OpacityField({ layer }: { layer: Layer }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  return (
    <NumberField
      label={t('editor.opacity')}
      value={Math.round((layer.opacity ?? 1) * 100)}
      min={0}
      max={100}
      suffix="%"
      error={error('opacity')}
      onChange={(v) =>
        v === undefined || v >= 100 ? remove('opacity') : update({ opacity: v / 100 })
      }
    />
  );
}
