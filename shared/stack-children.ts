import type { Layer, StackLayer } from './template-format.js';

/**
 * Pure edits of a page's layers that reach inside stacks: the editor selects a stack's children
 * by id (ids are unique across a layout, children included), so finding, changing, moving,
 * copying and removing one walks the stacks. Each returns the same array when nothing changed,
 * so an edit that does nothing makes no undo step.
 */

/** Where a layer sits: its index at each depth, from the page's layers down. */
export interface FoundLayer {
  layer: Layer;
  path: number[];
  /** The stack holding it; null at the top of the page. */
  parent: StackLayer | null;
}

export function findLayer(layers: readonly Layer[], id: string): FoundLayer | null {
  for (const [index, layer] of layers.entries()) {
    if (layer.id === id) return { layer, path: [index], parent: null };
    if (layer.kind === 'stack') {
      const inner = findLayer(layer.layers, id);
      if (inner) return { ...inner, path: [index, ...inner.path], parent: inner.parent ?? layer };
    }
  }
  return null;
}

/** The stacks holding the layer, outermost first (empty at the top of the page or when absent). */
export function ancestorsOf(layers: readonly Layer[], id: string): StackLayer[] {
  const found = findLayer(layers, id);
  if (!found) return [];
  const stacks: StackLayer[] = [];
  let level: readonly Layer[] = layers;
  for (const index of found.path.slice(0, -1)) {
    const stack = level[index];
    if (stack?.kind !== 'stack') return [];
    stacks.push(stack);
    level = stack.layers;
  }
  return stacks;
}

/** The children of the stack at `path` changed by `change`; the same array when none did. */
function changedAt(
  layers: Layer[],
  path: readonly number[],
  change: (siblings: Layer[]) => Layer[],
): Layer[] {
  if (path.length === 0) return change(layers);
  const [index, ...rest] = path as [number, ...number[]];
  const stack = layers[index];
  if (stack?.kind !== 'stack') return layers;
  const inner = changedAt(stack.layers, rest, change);
  if (inner === stack.layers) return layers;
  const next = [...layers];
  next[index] = { ...stack, layers: inner };
  return next;
}

/** The layers with the one of `id` (at any depth) changed. */
export function updateLayerIn(
  layers: Layer[],
  id: string,
  change: (layer: Layer) => Layer,
): Layer[] {
  const found = findLayer(layers, id);
  if (!found) return layers;
  const index = found.path[found.path.length - 1]!;
  return changedAt(layers, found.path.slice(0, -1), (siblings) => {
    const current = siblings[index]!;
    const next = change(current);
    if (next === current) return siblings;
    const copy = [...siblings];
    copy[index] = next;
    return copy;
  });
}

/** Moves a stack's child earlier (-1) or later (+1) in the stack; the same array at an end. */
export function moveChild(layers: Layer[], id: string, delta: number): Layer[] {
  const found = findLayer(layers, id);
  if (!found?.parent) return layers;
  const from = found.path[found.path.length - 1]!;
  const to = from + delta;
  if (to < 0 || to >= found.parent.layers.length) return layers;
  return changedAt(layers, found.path.slice(0, -1), (siblings) => {
    const next = [...siblings];
    const [child] = next.splice(from, 1);
    next.splice(to, 0, child!);
    return next;
  });
}

/** A stack keeps at least one layer (the template's schema says so). */
export function isLastChild(layers: readonly Layer[], id: string): boolean {
  const found = findLayer(layers, id);
  return found?.parent?.layers.length === 1;
}

/**
 * Removes a stack's child. Refused (`last`) for a stack's only layer: the stack would be
 * invalid; removing the stack is the way.
 */
export function removeChild(layers: Layer[], id: string): Layer[] | 'last' {
  const found = findLayer(layers, id);
  if (!found?.parent) return layers;
  if (found.parent.layers.length === 1) return 'last';
  const index = found.path[found.path.length - 1]!;
  return changedAt(layers, found.path.slice(0, -1), (siblings) =>
    siblings.filter((_, i) => i !== index),
  );
}

/**
 * A copy of a stack's child right after it in the stack, made by `copy` (which gives it, and
 * a stack's children, fresh ids). Null when the id is not a child.
 */
export function duplicateChild(
  layers: Layer[],
  id: string,
  copy: (layer: Layer) => Layer,
): { layers: Layer[]; copy: Layer } | null {
  const found = findLayer(layers, id);
  if (!found?.parent) return null;
  const made = copy(found.layer);
  const index = found.path[found.path.length - 1]!;
  const next = changedAt(layers, found.path.slice(0, -1), (siblings) => {
    const copyOf = [...siblings];
    copyOf.splice(index + 1, 0, made);
    return copyOf;
  });
  return { layers: next, copy: made };
}
