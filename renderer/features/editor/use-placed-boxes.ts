import { useCallback, useMemo } from 'react';
import type { DrawnBox } from '../../../shared/drawn-boxes';
import { drawnBoxOf } from '../../../shared/pick-child';
import { findLayer } from '../../../shared/stack-children';
import type { Layer } from '../../api/types';
import { pageLayers } from './layout-page';
import type { DraftPreview } from './use-draft-preview';

/**
 * Where each layer of the page was drawn in the shown preview, for a stack's children: the
 * engine's boxes, moved by as much as their stack moved since (a drag shows at once, the new
 * layout when the preview catches up). Boxes of another size or page are not used.
 */
export function usePlacedBoxes(
  preview: DraftPreview,
  layers: Layer[] | undefined,
  ratio: string,
  page: number,
): (layer: Layer) => DrawnBox | null {
  const { boxes, rendered } = preview;
  const shown = rendered !== null && rendered.ratio === ratio && preview.page === page;
  const drawn = useMemo(
    () => new Map(shown ? boxes.map((box) => [box.id, box]) : []),
    [boxes, shown],
  );
  const then = shown ? rendered.template.layouts[rendered.ratio] : undefined;
  const thenLayers = then ? pageLayers(then, page) : undefined;
  return useCallback(
    (layer: Layer) => {
      const box = drawnBoxOf(layer, drawn);
      if (!box || !layers || !thenLayers) return box;
      const at = findLayer(layers, layer.id);
      const top = at ? layers[at.path[0]!] : undefined;
      const before = top ? thenLayers.find((l) => l.id === top.id) : undefined;
      if (!top || !before) return box;
      return { ...box, x: box.x + top.x - before.x, y: box.y + top.y - before.y };
    },
    [drawn, layers, thenLayers],
  );
}
