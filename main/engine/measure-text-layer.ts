import type { TextLayer } from '../../shared/template-format.js';
import type { DrawContext } from './draw-context.js';
import { measureFormat2TextLayer } from './text/format2-text-layer.js';

/**
 * The room a text layer's fitted text takes in its box (the width its widest line needs to break
 * as it did, height of its lines with their marks, padding included) and the size it fits at;
 * null when it draws no text.
 * Stacks and fit groups are format 2 features, so this measures the way format 2 text is drawn.
 * Text on an arc keeps its box: it has no lines to measure.
 */
export function measureTextLayer(dc: DrawContext, layer: TextLayer): Measured | null {
  if (layer.path) return { size: layer.size, width: layer.width, height: layer.height };
  // Stacks and groups ask again for the same layer in the same box: fitting is the cost.
  let cache = measured.get(dc);
  if (!cache) measured.set(dc, (cache = new Map()));
  const key = `${layer.id}|${layer.width}|${layer.height}|${layer.size}|${layer.minSize}|${layer.letterSpacing}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const result = measureFormat2TextLayer(dc, layer);
  const size = result
    ? { size: result.fitted.size, width: result.width, height: result.height }
    : null;
  cache.set(key, size);
  return size;
}

interface Measured {
  size: number;
  width: number;
  height: number;
}

/** Per drawing (a page's draw context): the layers' text and values do not change within it. */
const measured = new WeakMap<DrawContext, Map<string, Measured | null>>();
