import { useCallback } from 'react';
import type { Layer } from '../../api/types';
import { layerPath, problemAt } from './layer-ops';
import { selectLayers, useEditorStore } from './editor-store';
import { findLayer } from '../../../shared/stack-children';

/** Changes a layer's properties (one undo step per field while typing) and reads its problems. */
export function useLayerEdit<L extends Layer>(
  layer: L,
): {
  update: (patch: Partial<L>, key?: string) => void;
  remove: (property: keyof L & string) => void;
  error: (property: string) => string | undefined;
} {
  const ratio = useEditorStore((s) => s.ratio);
  const page = useEditorStore((s) => s.page);
  const problems = useEditorStore((s) => s.problems);
  // Where the layer sits, at the top or inside stacks (joined, so the selector's value is stable).
  const at = useEditorStore((s) => {
    const layers = selectLayers(s);
    return (layers && findLayer(layers, layer.id)?.path.join(',')) ?? '';
  });
  const id = layer.id;
  const update = useCallback(
    (patch: Partial<L>, key?: string) =>
      useEditorStore
        .getState()
        .updateLayer(
          id,
          (l) => ({ ...l, ...patch }) as Layer,
          key ?? `field-${id}-${Object.keys(patch).join(',')}`,
        ),
    [id],
  );
  const remove = useCallback(
    (property: keyof L & string) =>
      useEditorStore.getState().updateLayer(id, (l) => {
        if (!(property in l)) return l;
        const next = { ...l } as Record<string, unknown>;
        delete next[property];
        return next as unknown as Layer;
      }),
    [id],
  );
  const error = (property: string) =>
    at === ''
      ? undefined
      : problemAt(problems, layerPath(ratio, page, at.split(',').map(Number), property));
  return { update, remove, error };
}
