import {
  memo,
  useCallback,
  useRef,
  type PointerEvent as ReactPointerEvent,
  type ReactElement,
} from 'react';
import { unitToPixels } from '../../../shared/page-sizes';
import { pickChild } from '../../../shared/pick-child';
import { ancestorsOf, findLayer } from '../../../shared/stack-children';
import type { Layer, Layout } from '../../api/types';
import { ChildOutlines } from './ChildOutlines';
import { usePlacedBoxes } from './use-placed-boxes';
import { useT } from '../../i18n/i18n';
import { selectLayers, selectLayout, useEditorStore } from './editor-store';
import { KeepOutline } from './KeepOutline';
import { resizeBox, snapMove, snapResize, type Box, type HandleEdges } from './snapping';
import type { DraftPreview } from './use-draft-preview';

/** Screen pixels within which an edge snaps. */
const SNAP_SCREEN_PX = 6;

const HANDLES: { name: string; edges: HandleEdges }[] = [
  { name: 'nw', edges: { x: -1, y: -1 } },
  { name: 'n', edges: { x: 0, y: -1 } },
  { name: 'ne', edges: { x: 1, y: -1 } },
  { name: 'e', edges: { x: 1, y: 0 } },
  { name: 'se', edges: { x: 1, y: 1 } },
  { name: 's', edges: { x: 0, y: 1 } },
  { name: 'sw', edges: { x: -1, y: 1 } },
  { name: 'w', edges: { x: -1, y: 0 } },
];

let gestureSeq = 0;

/**
 * A print layout's sheet in layout pixels: the trim plus its bleed on every side (the preview
 * shows the bleed, as raster outputs do), and its safe margin; a pixel layout is its trim alone.
 */
function sheetOf(layout: Layout): { width: number; height: number; bleed: number; safe: number } {
  const page = layout.page;
  const bleed = page ? unitToPixels(page, page.bleed) : 0;
  const safe = page ? unitToPixels(page, page.safe) : 0;
  return { width: layout.width + 2 * bleed, height: layout.height + 2 * bleed, bleed, safe };
}

/**
 * The canvas: the engine's preview as the picture, and over it a transparent box per layer to
 * select, drag and resize. Boxes follow the pointer at once; the picture follows when the engine
 * has rendered the change.
 */
export function Stage({ preview, name }: { preview: DraftPreview; name: string }): ReactElement {
  const t = useT();
  const layout = useEditorStore(selectLayout);
  const layers = useEditorStore(selectLayers);
  const selected = useEditorStore((s) => s.selected);
  const revision = useEditorStore((s) => s.revision);
  const page = useEditorStore((s) => s.page);
  const ratio = useEditorStore((s) => s.ratio);
  const overlayRef = useRef<HTMLDivElement>(null);
  const boxOf = usePlacedBoxes(preview, layers, ratio, page);
  // Read by the stable gesture handler below, so it picks by the boxes shown now.
  const boxOfRef = useRef(boxOf);
  boxOfRef.current = boxOf;

  // Stable across renders so the memoised boxes do not re-render while another one moves.
  const begin = useCallback(
    (event: ReactPointerEvent<HTMLElement>, layer: Layer, edges: HandleEdges | null) => {
      if (event.button !== 0) return;
      const layout = selectLayout(useEditorStore.getState());
      const layers = selectLayers(useEditorStore.getState());
      if (!layout || !layers) return;
      // The overlay covers the sheet (trim and bleed): its screen width is the sheet's.
      const width = sheetOf(layout).width;
      event.preventDefault();
      event.stopPropagation();
      const store = useEditorStore.getState();
      const rect = overlayRef.current?.getBoundingClientRect();
      const scale = rect && rect.width > 0 ? rect.width / width : 0;
      // A click inside a stack being edited (it or a layer in it selected) picks the child under
      // the pointer, where the engine drew it; a drag still moves the whole stack.
      const editing =
        !edges &&
        layer.kind === 'stack' &&
        store.selected !== null &&
        (store.selected === layer.id ||
          ancestorsOf(layers, store.selected).some((stack) => stack.id === layer.id));
      let picked: string | null = null;
      if (editing && rect && scale > 0) {
        // The overlay holds the sheet; layers and drawn boxes are in trim pixels inside its bleed.
        const bleed = sheetOf(layout).bleed;
        const point = {
          x: (event.clientX - rect.left) / scale - bleed,
          y: (event.clientY - rect.top) / scale - bleed,
        };
        picked = pickChild(layers, layer.id, store.selected, point, boxOfRef.current);
      } else store.select(layer.id);
      overlayRef.current?.focus({ preventScroll: true });
      if (!rect || scale === 0) return;
      const start: Box = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
      const others: Box[] = layers
        .filter((l) => l.id !== layer.id)
        .map((l) => ({ x: l.x, y: l.y, width: l.width, height: l.height }));
      const startX = event.clientX;
      const startY = event.clientY;
      const key = `gesture-${++gestureSeq}`;
      const threshold = SNAP_SCREEN_PX / scale;
      let moved = false;

      const onMove = (e: PointerEvent) => {
        const dx = (e.clientX - startX) / scale;
        const dy = (e.clientY - startY) / scale;
        if (!moved && Math.abs(dx) * scale < 2 && Math.abs(dy) * scale < 2) return;
        moved = true;
        let next: Box;
        let guides: ReturnType<typeof snapMove>['guides'] = [];
        if (edges) {
          const resized = resizeBox(start, edges, dx, dy, e.shiftKey);
          if (e.altKey || e.shiftKey) next = resized;
          else ({ box: next, guides } = snapResize(resized, edges, others, layout, threshold));
        } else {
          const shifted = { ...start, x: start.x + dx, y: start.y + dy };
          if (e.altKey) next = shifted;
          else ({ box: next, guides } = snapMove(shifted, others, layout, threshold));
        }
        const rounded = {
          x: Math.round(next.x),
          y: Math.round(next.y),
          width: Math.max(1, Math.round(next.width)),
          height: Math.max(1, Math.round(next.height)),
        };
        const s = useEditorStore.getState();
        s.updateLayer(
          layer.id,
          (l) =>
            l.x === rounded.x &&
            l.y === rounded.y &&
            l.width === rounded.width &&
            l.height === rounded.height
              ? l
              : { ...l, ...rounded },
          key,
        );
        s.setGuides(guides);
      };
      const onUp = () => {
        window.removeEventListener('pointermove', onMove);
        window.removeEventListener('pointerup', onUp);
        window.removeEventListener('pointercancel', onUp);
        const s = useEditorStore.getState();
        s.setGuides([]);
        if (moved) s.settle();
        else if (editing) s.select(picked ?? layer.id);
      };
      window.addEventListener('pointermove', onMove);
      window.addEventListener('pointerup', onUp);
      window.addEventListener('pointercancel', onUp);
    },
    [],
  );

  if (!layout || !layers) return <div className="ed-stage-wrap" />;
  // The page's stack a selected layer sits in: outlined while its layers are edited.
  const inside = selected === null ? null : findLayer(layers, selected);
  const editedStack = inside && inside.path.length > 1 ? layers[inside.path[0]!]?.id : undefined;
  const width = layout.width;
  const height = layout.height;
  const sheet = sheetOf(layout);
  // The trim within the sheet; layers and guides are placed in trim coordinates inside it.
  const trimStyle = {
    left: `${(sheet.bleed / sheet.width) * 100}%`,
    top: `${(sheet.bleed / sheet.height) * 100}%`,
    width: `${(width / sheet.width) * 100}%`,
    height: `${(height / sheet.height) * 100}%`,
  };
  const safeStyle = {
    left: `${(sheet.safe / width) * 100}%`,
    top: `${(sheet.safe / height) * 100}%`,
    right: `${(sheet.safe / width) * 100}%`,
    bottom: `${(sheet.safe / height) * 100}%`,
  };

  return (
    <div className="ed-stage-wrap">
      <div
        className="ed-stage"
        style={{
          aspectRatio: `${sheet.width} / ${sheet.height}`,
          ['--ratio' as string]: String(sheet.width / sheet.height),
        }}
      >
        {preview.url ? (
          <img
            className="ed-preview"
            src={preview.url}
            alt={t('editor.preview.alt', { name })}
            draggable={false}
            data-testid="editor-preview"
            data-preview-rev={preview.revision}
            data-preview-page={preview.page + 1}
            data-preview-count={preview.count}
          />
        ) : (
          <div className="ed-preview ed-preview-empty" role="status">
            <span className="spinner" aria-hidden />
            {t('editor.preview.first')}
          </div>
        )}
        <div
          ref={overlayRef}
          className="ed-overlay"
          tabIndex={0}
          role="group"
          aria-label={t('editor.canvas')}
          aria-describedby="ed-canvas-help"
          data-testid="editor-canvas"
          data-draft-rev={revision}
          onPointerDown={(e) => {
            if (e.target === e.currentTarget) useEditorStore.getState().select(null);
          }}
        >
          <div
            className={`ed-trim${layout.page ? ' print' : ''}`}
            style={trimStyle}
            data-testid="editor-trim"
          >
            {layout.page && sheet.safe > 0 ? (
              <div className="ed-safe" style={safeStyle} aria-hidden />
            ) : null}
            {layers.map((layer) => (
              <LayerBox
                key={layer.id}
                layer={layer}
                width={width}
                height={height}
                selected={layer.id === selected}
                editing={layer.kind === 'stack' && layer.id === editedStack}
                onBegin={begin}
              />
            ))}
            <ChildOutlines
              layers={layers}
              selected={selected}
              boxOf={boxOf}
              width={width}
              height={height}
            />
            <Guides width={width} height={height} />
          </div>
        </div>
      </div>
      <p id="ed-canvas-help" className="small subtle ed-help">
        {t('editor.canvas.help')}
      </p>
    </div>
  );
}

const LayerBox = memo(function LayerBox({
  layer,
  width,
  height,
  selected,
  editing,
  onBegin,
}: {
  layer: Layer;
  width: number;
  height: number;
  selected: boolean;
  /** A stack whose layer is selected. */
  editing: boolean;
  onBegin: (e: ReactPointerEvent<HTMLElement>, layer: Layer, edges: HandleEdges | null) => void;
}): ReactElement {
  const style = {
    left: `${(layer.x / width) * 100}%`,
    top: `${(layer.y / height) * 100}%`,
    width: `${(layer.width / width) * 100}%`,
    height: `${(layer.height / height) * 100}%`,
    ...(layer.rotation ? { transform: `rotate(${layer.rotation}deg)` } : {}),
  };
  return (
    <div
      className={`ed-box${selected ? ' selected' : ''}${editing ? ' editing' : ''}`}
      style={style}
      data-layer-id={layer.id}
      aria-hidden
      onPointerDown={(e) => onBegin(e, layer, null)}
    >
      {selected ? (
        <>
          <span className="ed-box-label">{layer.id}</span>
          {layer.kind === 'image' ? <KeepOutline layer={layer} /> : null}
          {HANDLES.map((h) => (
            <span
              key={h.name}
              className={`ed-handle h-${h.name}`}
              data-handle={h.name}
              onPointerDown={(e) => onBegin(e, layer, h.edges)}
            />
          ))}
        </>
      ) : null}
    </div>
  );
});

function Guides({ width, height }: { width: number; height: number }): ReactElement {
  const guides = useEditorStore((s) => s.guides);
  return (
    <>
      {guides.map((g) => (
        <span
          key={`${g.axis}${g.pos}`}
          className={`ed-guide ${g.axis}`}
          style={
            g.axis === 'x'
              ? { left: `${(g.pos / width) * 100}%` }
              : { top: `${(g.pos / height) * 100}%` }
          }
          aria-hidden
        />
      ))}
    </>
  );
}
