import type { TextLayer } from '../../shared/template-format.js';
import type { DrawContext } from './draw-context.js';
import { measureFormat2TextLayer } from './text/format2-text-layer.js';

/**
 * The room a text layer's fitted text takes in its box (width of its widest line, height of its
 * lines with their marks, padding included) and the size it fits at; null when it draws no text.
 * Stacks and fit groups are format 2 features, so this measures the way format 2 text is drawn.
 * Text on an arc keeps its box: it has no lines to measure.
 */
export function measureTextLayer(
  dc: DrawContext,
  layer: TextLayer,
): { size: number; width: number; height: number } | null {
  if (layer.path) return { size: layer.size, width: layer.width, height: layer.height };
  const measured = measureFormat2TextLayer(dc, layer);
  if (!measured) return null;
  return { size: measured.fitted.size, width: measured.width, height: measured.height };
}
