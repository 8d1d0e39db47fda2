import type { SKRSContext2D } from '@napi-rs/canvas';
import type { FontSpec } from '../../shared/template-format.js';
import { fontShorthand } from './fonts.js';

export interface TextStyleSpec {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  /** Preferred size in px. */
  size: number;
  /** Smallest size shrink-to-fit may use. */
  minSize: number;
  lineHeight: number;
  /** Letter spacing at the preferred size, scaled with the fitted size. */
  letterSpacing: number;
  maxLines: number | undefined;
  fit: 'shrink' | 'ellipsis';
  /**
   * How small a word may be drawn, below minSize, to keep it whole (a layer that holds only
   * people's names: `nameFloor`); unset, words break at minSize as any text does.
   */
  wholeWordFloor?: number;
}

export interface FittedText {
  size: number;
  lines: string[];
  /** Width of each line as drawn. */
  widths: number[];
  lineHeightPx: number;
  truncated: boolean;
  overflow: boolean;
}

const ELLIPSIS = '…';
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);

/** minSize when a template sets none: half the size, but not below 8 px. */
export function defaultMinSize(size: number): number {
  return Math.min(size, Math.max(8, Math.round(size / 2)));
}

/** The style fields text and list layers share (shared/template-format.ts, TextStyle). */
export interface LayerTextStyle {
  font: FontSpec;
  size: number;
  minSize?: number | undefined;
  lineHeight: number;
  letterSpacing: number;
}

/**
 * A layer's fitting spec: its font and sizes as the template sets them, the family already
 * resolved (a brand font role names a real family), and how this kind of layer fits.
 */
export function layerTextSpec(
  layer: LayerTextStyle,
  family: string,
  fitting: Pick<TextStyleSpec, 'maxLines' | 'fit'>,
): TextStyleSpec {
  return {
    family,
    weight: layer.font.weight,
    style: layer.font.style,
    size: layer.size,
    minSize: layer.minSize ?? defaultMinSize(layer.size),
    lineHeight: layer.lineHeight,
    letterSpacing: layer.letterSpacing,
    ...fitting,
  };
}

export function applyFont(ctx: SKRSContext2D, spec: TextStyleSpec, size: number): void {
  ctx.font = fontShorthand(spec.family, spec.weight, spec.style, size);
  ctx.letterSpacing = `${((spec.letterSpacing * size) / spec.size).toFixed(3)}px`;
}

/** Width as drawn; letter spacing after the last character does not count. */
export function measure(ctx: SKRSContext2D, text: string, spacingPx: number): number {
  if (text === '') return 0;
  return ctx.measureText(text).width - spacingPx;
}

/**
 * Greedy word wrap; a word wider than the line is broken between graphemes (never inside one, so
 * a Vietnamese letter and its marks or an emoji sequence stay whole).
 */
export function wrap(ctx: SKRSContext2D, text: string, width: number, spacingPx: number): string[] {
  return wrapWords(ctx, text, width, spacingPx).lines;
}

/** `wrap`, saying whether a word had to be broken between its graphemes. */
function wrapWords(
  ctx: SKRSContext2D,
  text: string,
  width: number,
  spacingPx: number,
): { lines: string[]; brokeWord: boolean } {
  const lines: string[] = [];
  let brokeWord = false;
  for (const paragraph of text.split('\n')) {
    const words = paragraph.split(/[ \t]+/).filter((w) => w !== '');
    if (words.length === 0) {
      lines.push('');
      continue;
    }
    let line = '';
    for (const word of words) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(ctx, candidate, spacingPx) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      if (measure(ctx, word, spacingPx) <= width) {
        line = word;
        continue;
      }
      // Break an over-long word (URLs, long compound words) across lines.
      brokeWord = true;
      let piece = '';
      for (const g of graphemes(word)) {
        if (piece && measure(ctx, piece + g, spacingPx) > width) {
          lines.push(piece);
          piece = g;
        } else piece += g;
      }
      line = piece;
    }
    lines.push(line);
  }
  return { lines, brokeWord };
}

/**
 * Where the ink of a block of lines reaches, relative to the block's top (line boxes stacked
 * from 0 to lines × lineHeight). Stacked Vietnamese marks on capitals (Ế, Ẫ) rise above the
 * font's ascent, so the top can be negative: fitting and placement use this span, not the
 * line boxes alone, so the marks are neither cut nor drawn outside the box.
 */
export function inkSpan(
  ctx: SKRSContext2D,
  lines: string[],
  lineHeightPx: number,
  size: number,
): { top: number; bottom: number; baselineOffset: number } {
  const font = ctx.measureText('Hg');
  const ascent = font.fontBoundingBoxAscent || size * 0.8;
  const descent = font.fontBoundingBoxDescent || size * 0.2;
  const baselineOffset = (lineHeightPx - (ascent + descent)) / 2 + ascent;
  const blockHeight = lines.length * lineHeightPx;
  if (lines.length === 0) return { top: 0, bottom: 0, baselineOffset };
  const first = ctx.measureText(lines[0] ?? '');
  const last = ctx.measureText(lines[lines.length - 1] ?? '');
  const lastBaseline = (lines.length - 1) * lineHeightPx + baselineOffset;
  return {
    top: Math.min(0, baselineOffset - first.actualBoundingBoxAscent),
    bottom: Math.max(blockHeight, lastBaseline + last.actualBoundingBoxDescent),
    baselineOffset,
  };
}

/**
 * Where a fitted block goes in its box: the ink span placed by verticalAlign. `top` is the first
 * line box's top and `baselineOffset` the baseline's place in each line box, so line i's
 * baseline is top + i × lineHeightPx + baselineOffset. The font must be applied.
 */
export function placeInkSpan(
  ctx: SKRSContext2D,
  fitted: Pick<FittedText, 'lines' | 'lineHeightPx' | 'size'>,
  box: { y: number; height: number },
  verticalAlign: 'top' | 'middle' | 'bottom',
): { top: number; baselineOffset: number } {
  const span = inkSpan(ctx, fitted.lines, fitted.lineHeightPx, fitted.size);
  const spanHeight = span.bottom - span.top;
  const spanTop =
    verticalAlign === 'top'
      ? box.y
      : verticalAlign === 'bottom'
        ? box.y + box.height - spanHeight
        : box.y + (box.height - spanHeight) / 2;
  return { top: spanTop - span.top, baselineOffset: span.baselineOffset };
}

function fitsAt(
  ctx: SKRSContext2D,
  text: string,
  spec: TextStyleSpec,
  size: number,
  width: number,
  height: number,
  wholeWords = false,
) {
  applyFont(ctx, spec, size);
  const spacing = (spec.letterSpacing * size) / spec.size;
  const { lines, brokeWord } = wrapWords(ctx, text, width, spacing);
  const lineHeightPx = size * spec.lineHeight;
  const span = inkSpan(ctx, lines, lineHeightPx, size);
  const ok =
    (spec.maxLines === undefined || lines.length <= spec.maxLines) &&
    span.bottom - span.top <= height + 0.01 &&
    lines.every((line) => measure(ctx, line, spacing) <= width + 0.01) &&
    !(wholeWords && brokeWord);
  return { ok, lines, lineHeightPx, spacing };
}

/**
 * The size a block is laid out at: the largest whole-pixel size from the spec's size down to
 * its floor (minSize when shrinking; the size itself for ellipsis) at which `layoutAt` fits, or
 * the floor's layout when none does. Plain and rich text fit by this one search.
 */
export function largestFittingSize<T extends { ok: boolean }>(
  spec: Pick<TextStyleSpec, 'size' | 'minSize' | 'lineHeight' | 'fit'>,
  height: number,
  layoutAt: (size: number) => T,
): { size: number; attempt: T } {
  // A box shorter than one line gets the size whose line fits it, so nothing is drawn outside.
  // With the same hundredth of a pixel of slack as the height checks: a stack sizes a line's box
  // as size × lineHeight (28 × 1.3 = 36.4), and 36.4 / 1.3 is 27.999… in floating point.
  const tallest = Math.max(1, Math.floor((height + 0.01) / spec.lineHeight));
  const top = Math.max(1, Math.min(spec.size, tallest));
  const bottom = spec.fit === 'shrink' ? Math.max(1, Math.min(spec.minSize, top)) : top;
  const first = layoutAt(top);
  if (first.ok || bottom >= top) return { size: top, attempt: first };
  // Binary search over whole pixels for the largest size that fits.
  let lo = Math.ceil(bottom);
  let hi = Math.floor(top) - 1;
  let best: { size: number; attempt: T } | null = null;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const trial = layoutAt(mid);
    if (trial.ok) {
      best = { size: mid, attempt: trial };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best ?? { size: bottom, attempt: layoutAt(bottom) };
}

/**
 * The smallest size a layer holding only names may use to keep a name whole: two thirds of its
 * minSize. A badge's 36 pt first name then holds "Bartholomew" whole at 26 pt in its 2.7 in,
 * which reads better from a few metres than "Bartho / lomew" at 36.
 */
export function nameFloor(minSize: number): number {
  return Math.max(1, Math.floor((minSize * 2) / 3));
}

/**
 * How whole a layout must keep the text: `kept` keeps critical values (a name, a phone number)
 * on one line and every word whole, `words` every word whole, `any` may break a word between
 * its letters.
 */
export type Wholeness = 'kept' | 'words' | 'any';

/**
 * The size search, most whole first: a critical value on one line within the layer's sizes,
 * else every word whole within them, else (a layer of names: `wholeWordFloor`) every word whole
 * below minSize, else anything at the largest size that fits. "Bartholomew" on a badge at a
 * smaller size reads better than "Bartho / lomew" at the full one; a URL or a name far longer
 * than the line still breaks.
 */
export function fitWholeWordsFirst<T extends { ok: boolean }>(
  spec: Pick<TextStyleSpec, 'size' | 'minSize' | 'lineHeight' | 'fit' | 'wholeWordFloor'>,
  height: number,
  layoutAt: (size: number, wholeness: Wholeness) => T,
  levels: readonly Wholeness[] = ['kept', 'words'],
): { size: number; attempt: T } {
  let last: { size: number; attempt: T } | undefined;
  for (const level of levels) {
    last = largestFittingSize(spec, height, (size) => layoutAt(size, level));
    if (last.attempt.ok) return last;
  }
  const floor = spec.wholeWordFloor;
  const top = last?.size ?? spec.minSize;
  if (spec.fit === 'shrink' && floor !== undefined && floor >= 1 && top > floor) {
    const below = largestFittingSize({ ...spec, size: top - 1, minSize: floor }, height, (size) =>
      layoutAt(size, 'words'),
    );
    if (below.attempt.ok) return below;
  }
  return largestFittingSize(spec, height, (size) => layoutAt(size, 'any'));
}

/**
 * Lays text out in a box: the largest size from `size` down to `minSize` (whole pixels) at which
 * it fits the width, the height and maxLines; if even minSize does not fit, the last line that
 * fits ends with an ellipsis. The result never exceeds the box.
 */
export function fitText(
  ctx: SKRSContext2D,
  text: string,
  spec: TextStyleSpec,
  width: number,
  height: number,
): FittedText {
  // Format 1 text breaks long words as it always did (saved templates draw the same), except in
  // a layer of names, which is kept whole first.
  const { size, attempt } =
    spec.wholeWordFloor === undefined
      ? largestFittingSize(spec, height, (size) => fitsAt(ctx, text, spec, size, width, height))
      : fitWholeWordsFirst(
          spec,
          height,
          (size, wholeness) => fitsAt(ctx, text, spec, size, width, height, wholeness !== 'any'),
          ['words'],
        );
  if (attempt.ok) {
    applyFont(ctx, spec, size);
    return finish(
      ctx,
      attempt.lines,
      size,
      attempt.lineHeightPx,
      attempt.spacing,
      false,
      width,
      height,
    );
  }
  let truncated = truncate(
    ctx,
    attempt.lines,
    spec,
    size,
    attempt.lineHeightPx,
    attempt.spacing,
    width,
    height,
  );
  // A box too short for even one line with its marks: go below minSize rather than spill out.
  for (let smaller = size - 1; truncated.overflow && smaller >= 1; smaller--) {
    const trial = fitsAt(ctx, text, spec, smaller, width, height);
    truncated = trial.ok
      ? finish(ctx, trial.lines, smaller, trial.lineHeightPx, trial.spacing, false, width, height)
      : truncate(ctx, trial.lines, spec, smaller, trial.lineHeightPx, trial.spacing, width, height);
  }
  return truncated;
}

function truncate(
  ctx: SKRSContext2D,
  lines: string[],
  spec: TextStyleSpec,
  size: number,
  lineHeightPx: number,
  spacing: number,
  width: number,
  height: number,
): FittedText {
  applyFont(ctx, spec, size);
  const byHeight = Math.max(1, Math.floor((height + 0.01) / lineHeightPx));
  const keep = Math.max(1, Math.min(spec.maxLines ?? Infinity, byHeight, lines.length));
  const kept = lines.slice(0, keep);
  kept[keep - 1] = withEllipsis(ctx, kept[keep - 1] ?? '', width, spacing);
  return finish(ctx, kept, size, lineHeightPx, spacing, true, width, height);
}

/** The line shortened until it fits `width` with "…" after it (the font must be applied). */
export function withEllipsis(
  ctx: SKRSContext2D,
  line: string,
  width: number,
  spacing: number,
): string {
  let last = line.trimEnd();
  // Drop whole words first, then graphemes, so the ellipsis ends a word where it can.
  while (last.includes(' ') && measure(ctx, last + ELLIPSIS, spacing) > width) {
    last = last.slice(0, last.lastIndexOf(' ')).trimEnd();
  }
  let parts = graphemes(last);
  while (parts.length > 0 && measure(ctx, parts.join('') + ELLIPSIS, spacing) > width) {
    parts.pop();
    last = parts.join('').trimEnd();
    parts = graphemes(last);
  }
  return `${last}${ELLIPSIS}`;
}

function finish(
  ctx: SKRSContext2D,
  lines: string[],
  size: number,
  lineHeightPx: number,
  spacing: number,
  truncated: boolean,
  width: number,
  height: number,
): FittedText {
  const widths = lines.map((line) => measure(ctx, line, spacing));
  const span = inkSpan(ctx, lines, lineHeightPx, size);
  const overflow = widths.some((w) => w > width + 0.5) || span.bottom - span.top > height + 0.5;
  return { size, lines, widths, lineHeightPx, truncated, overflow };
}
