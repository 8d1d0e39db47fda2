import type { SKRSContext2D } from '@napi-rs/canvas';
import type { VarRef } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import type { FittedText } from './fit-text.js';
import { DEFAULT_FAMILY } from './fonts.js';
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

export function transformCase(
  text: string,
  transform: 'none' | 'uppercase' | 'lowercase' | 'capitalize',
  locale: string,
): string {
  switch (transform) {
    case 'uppercase':
      return text.toLocaleUpperCase(locale);
    case 'lowercase':
      return text.toLocaleLowerCase(locale);
    case 'capitalize':
      return text.replace(
        /(^|\s)(\p{L})/gu,
        (_m, space: string, letter: string) => space + letter.toLocaleUpperCase(locale),
      );
    default:
      return text;
  }
}

/**
 * Draws fitted lines in the box. Lines sit on the alphabetic baseline, centred in their line box
 * by the font's ascent and descent, so mixed-size texts align the way designers expect.
 */
export function drawLines(
  ctx: SKRSContext2D,
  fitted: FittedText,
  box: Box,
  align: 'left' | 'center' | 'right',
  verticalAlign: 'top' | 'middle' | 'bottom',
  colour: string,
  startX?: number,
): void {
  const metrics = ctx.measureText('Hg');
  const ascent = metrics.fontBoundingBoxAscent || fitted.size * 0.8;
  const descent = metrics.fontBoundingBoxDescent || fitted.size * 0.2;
  const blockHeight = fitted.lines.length * fitted.lineHeightPx;
  const top =
    verticalAlign === 'top'
      ? box.y
      : verticalAlign === 'bottom'
        ? box.y + box.height - blockHeight
        : box.y + (box.height - blockHeight) / 2;
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
    const baseline =
      top + index * fitted.lineHeightPx + (fitted.lineHeightPx - (ascent + descent)) / 2 + ascent;
    ctx.fillText(line, x, baseline);
  });
}
