/** Snapping of a moved or resized box to the canvas and to other layers, in canvas pixels. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A guide line to draw: vertical at x = pos (axis 'x') or horizontal at y = pos (axis 'y'). */
export interface Guide {
  axis: 'x' | 'y';
  pos: number;
}

/** Which edges a resize handle moves: -1 the start edge (left/top), 1 the end edge, 0 neither. */
export interface HandleEdges {
  x: -1 | 0 | 1;
  y: -1 | 0 | 1;
}

function targets(others: Box[], canvas: { width: number; height: number }, axis: 'x' | 'y') {
  const lines =
    axis === 'x' ? [0, canvas.width / 2, canvas.width] : [0, canvas.height / 2, canvas.height];
  for (const box of others) {
    const start = axis === 'x' ? box.x : box.y;
    const size = axis === 'x' ? box.width : box.height;
    lines.push(start, start + size / 2, start + size);
  }
  return lines;
}

/** The smallest shift (within threshold) that puts one of `edges` on one of `lines`. */
function nearest(edges: number[], lines: number[], threshold: number): number | null {
  let best: number | null = null;
  for (const edge of edges) {
    for (const line of lines) {
      const delta = line - edge;
      if (Math.abs(delta) <= threshold && (best === null || Math.abs(delta) < Math.abs(best)))
        best = delta;
    }
  }
  return best;
}

function guidesAt(axis: 'x' | 'y', edges: number[], lines: number[]): Guide[] {
  const found = new Set<number>();
  for (const edge of edges)
    for (const line of lines) if (Math.abs(line - edge) < 0.5) found.add(line);
  return [...found].map((pos) => ({ axis, pos }));
}

/** Moves `box` so its edges or centre land on nearby lines; returns the new box and the guides. */
export function snapMove(
  box: Box,
  others: Box[],
  canvas: { width: number; height: number },
  threshold: number,
): { box: Box; guides: Guide[] } {
  const xs = targets(others, canvas, 'x');
  const ys = targets(others, canvas, 'y');
  const edgesX = (b: Box) => [b.x, b.x + b.width / 2, b.x + b.width];
  const edgesY = (b: Box) => [b.y, b.y + b.height / 2, b.y + b.height];
  const dx = nearest(edgesX(box), xs, threshold) ?? 0;
  const dy = nearest(edgesY(box), ys, threshold) ?? 0;
  const next = { ...box, x: box.x + dx, y: box.y + dy };
  return {
    box: next,
    guides: [...guidesAt('x', edgesX(next), xs), ...guidesAt('y', edgesY(next), ys)],
  };
}

/** Snaps only the edges a resize handle moves. */
export function snapResize(
  box: Box,
  edges: HandleEdges,
  others: Box[],
  canvas: { width: number; height: number },
  threshold: number,
): { box: Box; guides: Guide[] } {
  const next = { ...box };
  const guides: Guide[] = [];
  if (edges.x !== 0) {
    const lines = targets(others, canvas, 'x');
    const edge = edges.x < 0 ? next.x : next.x + next.width;
    const delta = nearest([edge], lines, threshold);
    if (delta !== null) {
      if (edges.x < 0) {
        next.x += delta;
        next.width -= delta;
      } else next.width += delta;
      guides.push({ axis: 'x', pos: edge + delta });
    }
  }
  if (edges.y !== 0) {
    const lines = targets(others, canvas, 'y');
    const edge = edges.y < 0 ? next.y : next.y + next.height;
    const delta = nearest([edge], lines, threshold);
    if (delta !== null) {
      if (edges.y < 0) {
        next.y += delta;
        next.height -= delta;
      } else next.height += delta;
      guides.push({ axis: 'y', pos: edge + delta });
    }
  }
  return { box: next, guides };
}

/** The box a resize handle makes from `start` after the pointer moved by (dx, dy). */
export function resizeBox(
  start: Box,
  edges: HandleEdges,
  dx: number,
  dy: number,
  proportional: boolean,
  minSize = 1,
): Box {
  let width = start.width + edges.x * dx;
  let height = start.height + edges.y * dy;
  if (proportional && start.width > 0 && start.height > 0) {
    const aspect = start.width / start.height;
    if (edges.x === 0) width = height * aspect;
    else if (edges.y === 0) height = width / aspect;
    else if (Math.abs(width / start.width) > Math.abs(height / start.height))
      height = width / aspect;
    else width = height * aspect;
  }
  width = Math.max(minSize, width);
  height = Math.max(minSize, height);
  // The opposite edge stays put; a side handle on a proportional resize grows about the centre.
  const x =
    edges.x < 0
      ? start.x + start.width - width
      : edges.x === 0
        ? start.x + (start.width - width) / 2
        : start.x;
  const y =
    edges.y < 0
      ? start.y + start.height - height
      : edges.y === 0
        ? start.y + (start.height - height) / 2
        : start.y;
  return { x, y, width, height };
}
