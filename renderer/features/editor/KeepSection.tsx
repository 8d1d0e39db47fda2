import { useRef, type PointerEvent as ReactPointerEvent, type ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import type { KeepBox } from '../../../shared/template-format';
import { useEditorStore } from './editor-store';
import { NumberField, Section } from './inspector-fields';
import { useKeepSource } from './keep-source';
import { useLayerEdit } from './use-layer-edit';

type ImageLayer = Extract<Layer, { kind: 'image' }>;

/** The smallest subject a drag marks, as a fraction of the image (a click is not a subject). */
const MIN_SIDE = 0.02;

let dragSeq = 0;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number) => Math.round(v * 1000) / 1000;

/** A keep-box inside the image, its sides rounded to 0.1 % (the schema's fractions). */
function tidy(box: KeepBox): KeepBox {
  const x = round(clamp01(box.x));
  const y = round(clamp01(box.y));
  return {
    x: Math.min(x, 1 - MIN_SIDE),
    y: Math.min(y, 1 - MIN_SIDE),
    width: round(Math.min(Math.max(box.width, MIN_SIDE), 1 - Math.min(x, 1 - MIN_SIDE))),
    height: round(Math.min(Math.max(box.height, MIN_SIDE), 1 - Math.min(y, 1 - MIN_SIDE))),
  };
}

/**
 * The subject of an image layer (format 2): marked by dragging over its source picture or typed
 * in percent of the image, kept whole by every crop of this layer. It belongs to the layer of
 * the size being edited; Apply to all sizes shares it.
 */
export function KeepSection({ layer }: { layer: ImageLayer }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  const source = useKeepSource(layer);
  const pictureRef = useRef<HTMLDivElement>(null);

  if (!source.supported) {
    return (
      <Section title={t('editor.section.keep')}>
        <p className="small muted wide" data-testid="keep-format1">
          {t('editor.keep.format1')}
        </p>
      </Section>
    );
  }

  const keep = source.keep;
  const set = (next: KeepBox, key?: string) => update({ keep: tidy(next) }, key);
  const field = (side: keyof KeepBox, label: string) => (
    <NumberField
      label={label}
      value={keep ? Math.round(keep[side] * 1000) / 10 : undefined}
      optional
      min={0}
      max={100}
      step={0.5}
      suffix="%"
      error={error(`keep.${side}`)}
      onChange={(v) => {
        if (v === undefined) return;
        set({ ...(keep ?? { x: 0, y: 0, width: 1, height: 1 }), [side]: v / 100 }, 'keep-field');
      }}
    />
  );

  const begin = (event: ReactPointerEvent<HTMLDivElement>) => {
    const rect = pictureRef.current?.getBoundingClientRect();
    if (event.button !== 0 || !rect || rect.width === 0) return;
    event.preventDefault();
    const at = (e: { clientX: number; clientY: number }) => ({
      x: clamp01((e.clientX - rect.left) / rect.width),
      y: clamp01((e.clientY - rect.top) / rect.height),
    });
    const start = at(event);
    const key = `keep-drag-${++dragSeq}`;
    let moved = false;
    const onMove = (e: PointerEvent) => {
      const end = at(e);
      if (Math.abs(end.x - start.x) < MIN_SIDE && Math.abs(end.y - start.y) < MIN_SIDE) return;
      moved = true;
      set(
        {
          x: Math.min(start.x, end.x),
          y: Math.min(start.y, end.y),
          width: Math.abs(end.x - start.x),
          height: Math.abs(end.y - start.y),
        },
        key,
      );
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      if (moved) useEditorStore.getState().settle();
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  };

  return (
    <Section title={t('editor.section.keep')}>
      <p className="small muted wide">
        {!source.hasPicture && source.variable
          ? t('editor.keep.noSample', { name: source.variable })
          : t('editor.keep.hint')}
      </p>
      {source.url ? (
        <div
          ref={pictureRef}
          className="ed-keep-picture wide"
          data-testid="keep-picture"
          onPointerDown={begin}
        >
          <img
            src={source.url}
            alt={t('editor.keep.picture', { layer: layer.id })}
            draggable={false}
          />
          {keep ? (
            <span
              className={`ed-keep-box${source.inherited ? ' inherited' : ''}`}
              aria-hidden
              style={{
                left: `${keep.x * 100}%`,
                top: `${keep.y * 100}%`,
                width: `${Math.min(keep.width, 1 - keep.x) * 100}%`,
                height: `${Math.min(keep.height, 1 - keep.y) * 100}%`,
              }}
            />
          ) : null}
        </div>
      ) : null}
      {field('x', t('editor.keep.x'))}
      {field('y', t('editor.keep.y'))}
      {field('width', t('editor.keep.width'))}
      {field('height', t('editor.keep.height'))}
      <p className="small muted wide" role="status">
        {!keep
          ? t('editor.keep.none')
          : layer.fit !== 'cover'
            ? t('editor.keep.contain')
            : source.inherited && source.variable
              ? t('editor.keep.inherited', { name: source.variable })
              : null}
      </p>
      <div className="ed-field">
        <Button
          size="sm"
          icon="x"
          disabled={layer.keep === undefined}
          onClick={() => remove('keep')}
        >
          {t('editor.keep.clear')}
        </Button>
      </div>
    </Section>
  );
}
