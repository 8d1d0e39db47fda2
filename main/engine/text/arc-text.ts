import type { SKRSContext2D } from '@napi-rs/canvas';
import type { TextPath } from '../../../shared/template-format.js';
import type { TextStyleSpec } from '../fit-text.js';
import { fontShorthand } from '../fonts.js';
import type { Box } from '../paint.js';

/**
 * Text along an arc of a circle centred in the layer's box, for seals and badges. `radius` is
 * the circle the middle of the letters follows (by default the box's inscribed circle less
 * 0.85 × the size, so the letters and their marks stay inside). Each grapheme is placed by its advance in the
 * line as shaped (kerning kept) and turned to face outward; with `inside` it reads from the
 * inside, left to right along the bottom. Text that does not fit `sweep` shrinks down to
 * minSize, then ends in "…".
 */
export interface ArcFitted {
  size: number;
  text: string;
  truncated: boolean;
}

const ELLIPSIS = '…';
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** A seal never needs more letters than this; it also bounds the per-letter measuring. */
const MAX_GRAPHEMES = 200;

function radiusAt(path: TextPath, box: Box, size: number): number {
  return Math.max(1, path.radius ?? Math.min(box.width, box.height) / 2 - size * 0.85);
}

function setFont(ctx: SKRSContext2D, spec: TextStyleSpec, size: number): number {
  ctx.font = fontShorthand(spec.family, spec.weight, spec.style, size);
  const spacing = (spec.letterSpacing * size) / spec.size;
  ctx.letterSpacing = `${spacing.toFixed(3)}px`;
  return spacing;
}

function arcLength(ctx: SKRSContext2D, text: string, spacing: number): number {
  return text === '' ? 0 : ctx.measureText(text).width - spacing;
}

export function fitArcText(
  ctx: SKRSContext2D,
  text: string,
  spec: TextStyleSpec,
  path: TextPath,
  box: Box,
): ArcFitted {
  const line = [...segmenter.segment(text.replace(/\s+/g, ' ').trim())]
    .slice(0, MAX_GRAPHEMES)
    .map((s) => s.segment)
    .join('');
  const room = (size: number) => (radiusAt(path, box, size) * path.sweep * Math.PI) / 180;
  const bottom = spec.fit === 'shrink' ? Math.min(spec.minSize, spec.size) : spec.size;
  for (let size = Math.floor(spec.size); size >= Math.max(1, Math.floor(bottom)); size--) {
    const spacing = setFont(ctx, spec, size);
    if (arcLength(ctx, line, spacing) <= room(size)) return { size, text: line, truncated: false };
  }
  const size = Math.max(1, Math.floor(bottom));
  const spacing = setFont(ctx, spec, size);
  const graphemes = [...segmenter.segment(line)].map((s) => s.segment);
  while (
    graphemes.length > 0 &&
    arcLength(ctx, graphemes.join('').trimEnd() + ELLIPSIS, spacing) > room(size)
  ) {
    graphemes.pop();
  }
  return { size, text: graphemes.join('').trimEnd() + ELLIPSIS, truncated: true };
}

export function drawArcText(
  ctx: SKRSContext2D,
  fitted: ArcFitted,
  spec: TextStyleSpec,
  path: TextPath,
  box: Box,
  colour: string,
): void {
  const spacing = setFont(ctx, spec, fitted.size);
  const radius = radiusAt(path, box, fitted.size);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const graphemes = [...segmenter.segment(fitted.text)].map((s) => s.segment);
  // Offsets along the line as shaped: each grapheme starts where the text before it ends.
  const starts: number[] = [];
  let prefix = '';
  for (const g of graphemes) {
    starts.push(prefix === '' ? 0 : ctx.measureText(prefix).width);
    prefix += g;
  }
  const total = arcLength(ctx, fitted.text, spacing);
  // The letters' vertical middle sits on the circle: the cap height's half, from the font.
  const capMiddle = ctx.measureText('H').actualBoundingBoxAscent / 2;
  const centre = (path.angle * Math.PI) / 180;
  const turn = path.inside ? -1 : 1;
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  graphemes.forEach((g, i) => {
    const advance =
      (i + 1 < graphemes.length ? starts[i + 1]! : total + spacing) - starts[i]! - spacing;
    const along = starts[i]! + advance / 2 - total / 2;
    const angle = centre + (turn * along) / radius;
    ctx.save();
    ctx.translate(cx + radius * Math.sin(angle), cy - radius * Math.cos(angle));
    ctx.rotate(path.inside ? angle + Math.PI : angle);
    ctx.fillText(g, 0, capMiddle);
    ctx.restore();
  });
}
