import type { SKRSContext2D } from '@napi-rs/canvas';
import {
  applyFont,
  inkSpan,
  fitWholeWordsFirst,
  placeInkSpan,
  type Wholeness,
  type FittedText,
  type TextStyleSpec,
} from '../fit-text.js';
import { fontShorthand } from '../fonts.js';
import type { Box } from '../paint.js';
import { balancedBreaks, greedyBreaks, lineWidthOf, type BreakUnit } from './balanced-breaks.js';
import { decorationMetrics } from './decoration-metrics.js';
import {
  breakPenalty,
  graphemes as splitGraphemes,
  graphemesOf,
  paragraphsOf,
  type Paragraph,
  type Piece,
} from './line-items.js';
import { PLAIN_STYLE, sameStyle, type Run, type RunStyle } from './text-runs.js';

/**
 * Format 2 text: styled runs fitted into a box like format 1's plain text (the largest size from
 * `size` down to `minSize` that fits the width, the height and maxLines, else "…"), with
 * balanced or greedy breaks over items that keep words together, and drawn piece by piece so
 * bold, italic, colour, decorations and small currency symbols sit on one baseline.
 */
export interface RichSpec extends TextStyleSpec {
  wrap: 'balanced' | 'greedy';
  /** Layer-wide decoration, on top of the runs' own. */
  decoration: 'none' | 'underline' | 'strikethrough';
  currencyScale: number;
  currencyRaise: boolean;
  rtl: boolean;
}

export interface RichLine {
  pieces: Piece[];
  /** Width as drawn: the line measured whole (aligning it centre or right). */
  width: number;
  /**
   * Width as fitting measured it when it decided the line fits: the sum its breaks compared with
   * the box's width (lineWidthOf), or for a line cut short with "…" its width measured whole.
   */
  fitWidth: number;
}

export interface RichFitted extends FittedText {
  /**
   * The width the lines need: the widest line's fitWidth. Not the widest line measured whole:
   * breaks sum the widths of words and spaces, which kerning and rounding can make a hair wider
   * than the line measured whole, and in a box only that wide the line would break, shrink or be
   * cut short ("Phòng tập…") again. In a box this wide the text fits as it did here.
   */
  needed: number;
  richLines: RichLine[];
  /** The widths measured while fitting, reused when drawing. */
  measurer: Measurer;
}

const ELLIPSIS = '…';

/** Measures pieces at one size, each distinct text once per style. */
export class Measurer {
  private readonly cache = new Map<string, number>();
  /** Font shorthand by style flags: building it resolves the family each time. */
  private readonly fonts = new Map<number, string>();
  private current = '';
  constructor(
    private readonly ctx: SKRSContext2D,
    private readonly spec: RichSpec,
    readonly size: number,
  ) {}

  font(style: RunStyle): string {
    const key = (style.bold ? 1 : 0) | (style.italic ? 2 : 0) | (style.currency ? 4 : 0);
    let font = this.fonts.get(key);
    if (font === undefined) {
      font = this.shorthand(style);
      this.fonts.set(key, font);
    }
    return font;
  }

  private shorthand(style: RunStyle): string {
    return fontShorthand(
      this.spec.family,
      style.bold ? Math.min(900, Math.max(700, this.spec.weight + 300)) : this.spec.weight,
      style.italic ? 'italic' : this.spec.style,
      this.pieceSize(style),
    );
  }

  pieceSize(style: RunStyle): number {
    return style.currency ? this.size * this.spec.currencyScale : this.size;
  }

  get spacing(): number {
    return (this.spec.letterSpacing * this.size) / this.spec.size;
  }

  /** The context's font was set by someone else: set it again before the next use. */
  forget(): void {
    this.current = '';
  }

  /** Sets the context to draw `style`. */
  use(style: RunStyle): void {
    const font = this.font(style);
    if (font === this.current) return;
    this.ctx.font = font;
    this.ctx.letterSpacing = `${this.spacing.toFixed(3)}px`;
    this.current = font;
  }

  /** Advance of `text` in `style`, letter spacing after each character included. */
  width(text: string, style: RunStyle): number {
    if (text === '') return 0;
    const key = `${this.font(style)}|${text}`;
    let width = this.cache.get(key);
    if (width === undefined) {
      this.use(style);
      width = this.ctx.measureText(text).width;
      this.cache.set(key, width);
    }
    return width;
  }

  /** Width of a line as drawn: the trailing letter spacing does not count. */
  lineWidth(pieces: readonly Piece[]): number {
    if (pieces.length === 0) return 0;
    return pieces.reduce((sum, p) => sum + this.width(p.text, p.style), 0) - this.spacing;
  }
}

/** Adds a piece, merging it into the last one when the style is the same. */
function append(pieces: Piece[], text: string, style: RunStyle): void {
  if (text === '') return;
  const last = pieces[pieces.length - 1];
  if (last && sameStyle(last.style, style)) last.text += text;
  else pieces.push({ text, style });
}

interface Unit extends BreakUnit {
  pieces: Piece[];
  spaceStyle: RunStyle | null;
}

/**
 * The units of a paragraph at one size: its items, or, for an item wider than the line, its
 * words, and for a word wider than the line its graphemes.
 */
function unitsOf(
  paragraph: Paragraph,
  m: Measurer,
  width: number,
  split: { kept: boolean; brokeWord: boolean },
): Unit[] {
  const units: Unit[] = [];
  // Between two units on a line: the space (if any) and the letter spacing after the first unit's
  // last letter, which unit widths leave out, so lines add up to their width measured whole.
  const space = (style: RunStyle | null) => (style ? m.width(' ', style) : 0) + m.spacing;
  for (const item of paragraph) {
    const pieces: Piece[] = [];
    item.words.forEach((word, i) => {
      for (const piece of word.pieces) append(pieces, piece.text, piece.style);
      if (i < item.words.length - 1 && word.space) append(pieces, ' ', word.space);
    });
    const last = item.words[item.words.length - 1]!;
    const itemWidth = pieces.reduce((sum, p) => sum + m.width(p.text, p.style), 0) - m.spacing;
    if (itemWidth <= width) {
      units.push({
        pieces,
        width: itemWidth,
        spaceAfter: space(last.space),
        spaceStyle: last.space,
        penalty: breakPenalty(last),
        inWord: false,
        words: item.words.length,
      });
      continue;
    }
    if (item.words.some((word) => word.keepNext)) split.kept = true;
    for (const word of item.words) {
      const wordWidth = m.lineWidth(word.pieces);
      if (wordWidth <= width) {
        units.push({
          pieces: word.pieces.map((p) => ({ ...p })),
          width: wordWidth,
          spaceAfter: space(word.space),
          spaceStyle: word.space,
          penalty: breakPenalty(word),
          inWord: false,
          words: 1,
        });
        continue;
      }
      // An over-long word (a URL, text without spaces) breaks between graphemes.
      split.brokeWord = true;
      const graphemes = graphemesOf(word);
      graphemes.forEach((g, i) => {
        const lastGrapheme = i === graphemes.length - 1;
        units.push({
          pieces: [g],
          width: m.width(g.text, g.style) - m.spacing,
          spaceAfter: space(lastGrapheme ? word.space : null),
          spaceStyle: lastGrapheme ? word.space : null,
          penalty: lastGrapheme ? breakPenalty(word) : 0,
          inWord: !lastGrapheme,
          words: 1,
        });
      });
    }
  }
  return units;
}

function layoutLines(
  paragraphs: Paragraph[],
  m: Measurer,
  spec: RichSpec,
  width: number,
  split: { kept: boolean; brokeWord: boolean } = { kept: false, brokeWord: false },
) {
  const lines: RichLine[] = [];
  for (const paragraph of paragraphs) {
    const units = unitsOf(paragraph, m, width, split);
    if (units.length === 0) {
      lines.push({ pieces: [], width: 0, fitWidth: 0 });
      continue;
    }
    const ends = spec.wrap === 'greedy' ? greedyBreaks(units, width) : balancedBreaks(units, width);
    let start = 0;
    for (const end of ends) {
      const pieces: Piece[] = [];
      for (let i = start; i < end; i++) {
        const unit = units[i]!;
        for (const piece of unit.pieces) append(pieces, piece.text, piece.style);
        if (i < end - 1 && unit.spaceStyle) append(pieces, ' ', unit.spaceStyle);
      }
      lines.push({ pieces, width: m.lineWidth(pieces), fitWidth: lineWidthOf(units, start, end) });
      start = end;
    }
  }
  return lines;
}

const plainText = (line: RichLine) => line.pieces.map((p) => p.text).join('');

function attempt(
  ctx: SKRSContext2D,
  paragraphs: Paragraph[],
  spec: RichSpec,
  size: number,
  width: number,
  height: number,
  wholeness: Wholeness,
) {
  const m = new Measurer(ctx, spec, size);
  const split = { kept: false, brokeWord: false };
  const lines = layoutLines(paragraphs, m, spec, width, split);
  const lineHeightPx = size * spec.lineHeight;
  applyFont(ctx, spec, size);
  m.forget();
  const span = inkSpan(ctx, lines.map(plainText), lineHeightPx, size);
  const ok =
    (spec.maxLines === undefined || lines.length <= spec.maxLines) &&
    span.bottom - span.top <= height + 0.01 &&
    // The widths the breaks were chosen by (a grapheme wider than the box still gets a line), with
    // half a pixel of slack, as the overflow check allows.
    lines.every((line) => line.fitWidth <= width + 0.5) &&
    !(wholeness === 'kept' && split.kept) &&
    !(wholeness !== 'any' && split.brokeWord);
  return { ok, lines, lineHeightPx, m };
}

export function fitRichText(
  ctx: SKRSContext2D,
  runs: readonly Run[],
  spec: RichSpec,
  width: number,
  height: number,
): RichFitted {
  const paragraphs = paragraphsOf(runs);
  // A critical value (a name, a phone number) is kept on one line at a smaller size if one
  // fits; only when none does is it broken between its words, and only when no size keeps the
  // words whole is a word broken between its letters (fitWholeWordsFirst).
  const { size, attempt: best } = fitWholeWordsFirst(spec, height, (size, wholeness) =>
    attempt(ctx, paragraphs, spec, size, width, height, wholeness),
  );
  if (best.ok) {
    return finish(ctx, best.m, best.lines, spec, size, best.lineHeightPx, false, width, height);
  }
  let result = truncate(ctx, best, spec, size, width, height);
  // A box too short for even one line with its marks: go below minSize rather than spill out.
  for (let smaller = size - 1; result.overflow && smaller >= 1; smaller--) {
    const trial = attempt(ctx, paragraphs, spec, smaller, width, height, 'any');
    result = trial.ok
      ? finish(ctx, trial.m, trial.lines, spec, smaller, trial.lineHeightPx, false, width, height)
      : truncate(ctx, trial, spec, smaller, width, height);
  }
  return result;
}

function truncate(
  ctx: SKRSContext2D,
  trial: { lines: RichLine[]; lineHeightPx: number; m: Measurer },
  spec: RichSpec,
  size: number,
  width: number,
  height: number,
): RichFitted {
  const byHeight = Math.max(1, Math.floor((height + 0.01) / trial.lineHeightPx));
  const keep = Math.max(1, Math.min(spec.maxLines ?? Infinity, byHeight, trial.lines.length));
  const kept = trial.lines.slice(0, keep);
  kept[keep - 1] = withEllipsis(kept[keep - 1]!, trial.m, width);
  return finish(ctx, trial.m, kept, spec, size, trial.lineHeightPx, true, width, height);
}

/** The line shortened, a grapheme at a time, until it fits with "…" after it. */
function withEllipsis(line: RichLine, m: Measurer, width: number): RichLine {
  const graphemes = line.pieces.flatMap((piece) =>
    splitGraphemes(piece.text).map((text) => ({ text, style: piece.style })),
  );
  const build = (count: number) => {
    const pieces: Piece[] = [];
    for (const g of graphemes.slice(0, count)) append(pieces, g.text, g.style);
    const last = pieces[pieces.length - 1];
    if (last) last.text = last.text.trimEnd();
    const style = last?.style ?? graphemes[0]?.style;
    if (style) append(pieces, ELLIPSIS, { ...style, currency: false });
    return pieces;
  };
  let count = graphemes.length;
  let pieces = build(count);
  let lineWidth = m.lineWidth(pieces);
  while (count > 0 && lineWidth > width) {
    pieces = build(--count);
    lineWidth = m.lineWidth(pieces);
  }
  return { pieces, width: lineWidth, fitWidth: lineWidth };
}

function finish(
  ctx: SKRSContext2D,
  measurer: Measurer,
  richLines: RichLine[],
  spec: RichSpec,
  size: number,
  lineHeightPx: number,
  truncated: boolean,
  width: number,
  height: number,
): RichFitted {
  applyFont(ctx, spec, size);
  measurer.forget();
  const lines = richLines.map(plainText);
  const widths = richLines.map((line) => line.width);
  const needed = Math.max(0, ...richLines.map((line) => line.fitWidth));
  const span = inkSpan(ctx, lines, lineHeightPx, size);
  const overflow = needed > width + 0.5 || span.bottom - span.top > height + 0.5;
  return { size, lines, widths, needed, lineHeightPx, truncated, overflow, richLines, measurer };
}

/**
 * Draws fitted rich lines, placed in the box like format 1's lines (ink span by verticalAlign,
 * each line by align). A right-to-left paragraph is drawn from the right: its pieces in reverse,
 * each shaped and ordered by Skia with `direction = "rtl"`.
 */
export function drawRichLines(
  ctx: SKRSContext2D,
  fitted: RichFitted,
  spec: RichSpec,
  box: Box,
  align: 'left' | 'center' | 'right',
  verticalAlign: 'top' | 'middle' | 'bottom',
  colour: string,
): void {
  applyFont(ctx, spec, fitted.size);
  const { top, baselineOffset } = placeInkSpan(ctx, fitted, box, verticalAlign);
  const m = fitted.measurer;
  m.forget();
  const metrics = decorationMetrics(spec.family);
  const raise = spec.currencyRaise ? currencyRaise(ctx, m) : 0;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = spec.rtl ? 'right' : 'left';
  ctx.direction = spec.rtl ? 'rtl' : 'ltr';
  fitted.richLines.forEach((line, index) => {
    const start =
      align === 'left'
        ? box.x
        : align === 'right'
          ? box.x + box.width - line.width
          : box.x + (box.width - line.width) / 2;
    const baseline = top + index * fitted.lineHeightPx + baselineOffset;
    let x = spec.rtl ? start + line.width : start;
    line.pieces.forEach((piece, i) => {
      const advance = m.width(piece.text, piece.style);
      // The trailing letter spacing of the line's last piece is not part of its width.
      const drawn = i === line.pieces.length - 1 ? advance - m.spacing : advance;
      const left = spec.rtl ? x - drawn : x;
      m.use(piece.style);
      const paint = piece.style.colour ?? colour;
      ctx.fillStyle = paint;
      const y = baseline - (piece.style.currency ? raise : 0);
      ctx.fillText(piece.text, x, y);
      // A line through or under a price runs on through its small currency symbol unbroken:
      // decorations follow the line's size and baseline, not the symbol's.
      const decorate = (position: number, thickness: number) => {
        const t = Math.max(1, thickness * fitted.size);
        ctx.fillRect(left, baseline - position * fitted.size, drawn, t);
      };
      if (piece.style.underline || spec.decoration === 'underline') {
        decorate(metrics.underlinePosition, metrics.underlineThickness);
      }
      if (piece.style.strike || spec.decoration === 'strikethrough') {
        decorate(metrics.strikePosition, metrics.strikeThickness);
      }
      x = spec.rtl ? x - advance : x + advance;
    });
  });
  ctx.direction = 'ltr';
}

/** How far a small currency symbol rises so its top meets the top of the digits. */
function currencyRaise(ctx: SKRSContext2D, m: Measurer): number {
  const plain = { bold: false, italic: false, colour: null, underline: false, strike: false };
  m.use({ ...plain, currency: false });
  const full = ctx.measureText('0').actualBoundingBoxAscent;
  m.use({ ...plain, currency: true });
  const small = ctx.measureText('0').actualBoundingBoxAscent;
  return Math.max(0, full - small);
}

/**
 * Lines of plain text at one size, broken the format 2 way (words, compounds, numbers with their
 * units kept together): for layers that draw plain lines themselves, such as list items.
 */
export function wrapFormat2(
  ctx: SKRSContext2D,
  text: string,
  spec: RichSpec,
  size: number,
  width: number,
): string[] {
  const m = new Measurer(ctx, spec, size);
  const lines = layoutLines(paragraphsOf([{ text, style: PLAIN_STYLE }]), m, spec, width);
  applyFont(ctx, spec, size);
  return lines.map(plainText);
}
