import { createCanvas, type Canvas } from '@napi-rs/canvas';

/**
 * Canvases kept per thread for reuse, by size. A new 1080×1080 canvas per render is ~4.7 MB of
 * native memory that V8 only sees as external memory pressure: in a render worker fed back to back
 * it set off a full garbage collection every few renders, paid on every core. Two per size, as a
 * worker runs at most two jobs at once.
 */
const KEEP_PER_SIZE = 2;
/**
 * Sizes kept, the most recently handed back: a batch draws one sheet size, but the rasters a
 * PDF's codes are checked on are as large as the area around its codes, whose size may vary.
 */
const KEEP_SIZES = 8;
/** By size, the least recently handed back first. */
const idle = new Map<string, Canvas[]>();

const sizeKey = (width: number, height: number) => `${width}x${height}`;

/** A canvas of this size with a fresh 2D state (identity transform, defaults, transparent pixels). */
export function acquireCanvas(width: number, height: number): Canvas {
  const reused = idle.get(sizeKey(width, height))?.pop();
  if (!reused) return createCanvas(width, height);
  reused.getContext('2d').reset();
  return reused;
}

/** Hands a canvas back once nothing reads its pixels any more. */
export function releaseCanvas(canvas: Canvas): void {
  const key = sizeKey(canvas.width, canvas.height);
  const list = idle.get(key) ?? [];
  if (list.length >= KEEP_PER_SIZE || list.includes(canvas)) return;
  list.push(canvas);
  idle.delete(key);
  idle.set(key, list);
  for (const oldest of idle.keys()) {
    if (idle.size <= KEEP_SIZES) break;
    idle.delete(oldest);
  }
}
