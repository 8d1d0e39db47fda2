import type { SKRSContext2D } from '@napi-rs/canvas';
import type { VarRef } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import { placeInkSpan, type FittedText } from './fit-text.js';
import { DEFAULT_FAMILY } from './font-families.js';
import type { Box } from './paint.js';

/** A layer's font family: a literal, or a brand font variable's value. */
export function fontFamilyOf(
  family: string | VarRef,
  values: Record<string, ResolvedValue>,
): string {
  if (typeof family === 'string') return family;
  const bound = values[family.var];
  return typeof bound === 'string' && bound.trim() ? bound : DEFAULT_FAMILY;
}

/**
 * The baseline of each fitted line in the box. Lines sit on the alphabetic baseline, centred in
 * their line box by the font's ascent and descent, so mixed-size texts align the way designers
 * expect; a block whose marks rise above its first line box moves down just enough to keep them
 * in the box. The font must be applied.
 */
export function lineBaselines(
  ctx: SKRSContext2D,
  fitted: FittedText,
  box: Box,
  verticalAlign: 'top' | 'middle' | 'bottom',
): number[] {
  // Place the ink span (line boxes plus any marks rising above them) by verticalAlign.
  const { top, baselineOffset } = placeInkSpan(ctx, fitted, box, verticalAlign);
  return fitted.lines.map((_, index) => top + index * fitted.lineHeightPx + baselineOffset);
}

/** Draws fitted lines in the box, on the baselines `lineBaselines` gives. */
export function drawLines(
  ctx: SKRSContext2D,
  fitted: FittedText,
  box: Box,
  align: 'left' | 'center' | 'right',
  verticalAlign: 'top' | 'middle' | 'bottom',
  colour: string,
  startX?: number,
): void {
  const baselines = lineBaselines(ctx, fitted, box, verticalAlign);
  ctx.fillStyle = colour;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  fitted.lines.forEach((line, index) => {
    const width = fitted.widths[index] ?? 0;
    const x =
      startX ??
      (align === 'left'
        ? box.x
        : align === 'right'
          ? box.x + box.width - width
          : box.x + (box.width - width) / 2);
    ctx.fillText(line, x, baselines[index] ?? 0);
  });
}
