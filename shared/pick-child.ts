import type { DrawnBox } from './drawn-boxes.js';
import { findLayer } from './stack-children.js';
import type { Layer } from './template-format.js';

/** A point in the layout's trim pixels. */
export interface Point {
  x: number;
  y: number;
}

/**
 * Where a layer was drawn: its own box, or for a stack the box around its drawn children (a
 * stack draws nothing itself). Null for a layer not drawn (hidden, an empty text).
 */
export function drawnBoxOf(layer: Layer, drawn: ReadonlyMap<string, DrawnBox>): DrawnBox | null {
  if (layer.kind !== 'stack') return drawn.get(layer.id) ?? null;
  const inner = layer.layers
    .map((child) => drawnBoxOf(child, drawn))
    .filter((box): box is DrawnBox => box !== null);
  if (inner.length === 0) return null;
  const left = Math.min(...inner.map((b) => b.x));
  const top = Math.min(...inner.map((b) => b.y));
  const right = Math.max(...inner.map((b) => b.x + b.width));
  const bottom = Math.max(...inner.map((b) => b.y + b.height));
  return { id: layer.id, x: left, y: top, width: right - left, height: bottom - top };
}

/** Whether the point is inside the box, turned about its centre as drawn. */
export function boxContains(box: DrawnBox, point: Point): boolean {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const angle = (-(box.rotation ?? 0) * Math.PI) / 180;
  const dx = point.x - cx;
  const dy = point.y - cy;
  const lx = dx * Math.cos(angle) - dy * Math.sin(angle);
  const ly = dx * Math.sin(angle) + dy * Math.cos(angle);
  return Math.abs(lx) <= box.width / 2 && Math.abs(ly) <= box.height / 2;
}

/**
 * The layer a click inside the page's stack `stackId` picks when that stack, or a layer inside
 * it, is already selected: a child of the selected stack (or a sibling of the selected child)
 * under the point, else one of an outer stack's children, up to `stackId`'s own. Null when the
 * stack is not being edited or the point is on none of them (the stack itself is meant).
 */
export function pickChild(
  layers: readonly Layer[],
  stackId: string,
  selected: string | null,
  point: Point,
  boxOf: (layer: Layer) => DrawnBox | null,
): string | null {
  if (selected === null) return null;
  const found = findLayer(layers, selected);
  const top = findLayer(layers, stackId);
  if (!found || !top || top.layer.kind !== 'stack' || found.path[0] !== top.path[0]) return null;
  // The stacks to look in, innermost first: the selected one, then each holding it.
  let path = found.layer.kind === 'stack' ? found.path : found.path.slice(0, -1);
  while (path.length > 0) {
    let level: readonly Layer[] = layers;
    let stack: Layer | undefined;
    for (const index of path) {
      stack = level[index];
      if (stack?.kind !== 'stack') return null;
      level = stack.layers;
    }
    for (const child of level) {
      const box = boxOf(child);
      if (box && boxContains(box, point)) return child.id;
    }
    path = path.slice(0, -1);
  }
  return null;
}
