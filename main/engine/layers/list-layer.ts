import type { ListLayer } from '../../../shared/template-format.js';
import { reportEmptyText, type DrawContext } from '../draw-context.js';
import {
  applyFont,
  fitText,
  layerTextSpec,
  measure,
  withEllipsis,
  wrap,
  type FittedText,
} from '../fit-text.js';
import { missingGlyphs } from '../fonts.js';
import { resolveColour, type Box } from '../paint.js';
import { transformCase } from '../text-case.js';
import { drawLines, fontFamilyOf, lineBaselines } from '../text-lines.js';
import { wrapFormat2, type RichSpec } from '../text/rich-text.js';
import { drawDotLeaders, nameWidthBeside, splitPrice, type PricedItem } from './price-column.js';

/** An item's price as laid out at one size: set flush right, the name wrapping beside it. */
interface PlacedPrice {
  price: string;
  width: number;
  nameWidth: number;
}

interface ListLayout {
  size: number;
  items: string[][];
  /** Per item, its price column entry (null: an ordinary item). */
  prices: Array<PlacedPrice | null>;
  indent: number;
  gap: number;
  lineHeightPx: number;
  height: number;
  /** Some item was cut at maxLines. */
  clipped: boolean;
}

/** The list's items as drawn: the variable's values, at most maxItems, cased and composed. */
function listItems(dc: DrawContext, layer: ListLayer): string[] {
  const raw = dc.values[layer.items.var];
  return (Array.isArray(raw) ? raw : [])
    .slice(0, layer.maxItems ?? Infinity)
    .map((item) =>
      transformCase(item.normalize('NFC'), layer.transform, dc.template.locale).normalize('NFC'),
    );
}

/** A list fitted to its box: the size it fits at, its lines, and the items it could keep. */
interface FittedList {
  spec: ReturnType<typeof layerTextSpec>;
  layout: ListLayout;
  kept: string[];
  priced: Array<PricedItem | null>;
  column: ListLayer['priceColumn'];
  truncated: boolean;
}

/** Wraps the items and shrinks the whole list (then drops items from the end) to fit its box. */
function fitList(dc: DrawContext, layer: ListLayer, items: string[]): FittedList {
  const { ctx, values, template } = dc;
  const family = fontFamilyOf(layer.font.family, values);
  // Items wrap freely and the whole list shrinks: a list has no maxLines or ellipsis of its own.
  const spec = layerTextSpec(layer, family, { maxLines: undefined, fit: 'shrink' });
  const format2: RichSpec | null =
    template.schemaVersion >= 2
      ? {
          ...spec,
          wrap: 'greedy',
          decoration: 'none',
          currencyScale: 1,
          currencyRaise: false,
          rtl: false,
        }
      : null;
  // Format 2 only: format 1 renders exactly as it always did.
  const column = format2 ? layer.priceColumn : undefined;
  const priced: Array<PricedItem | null> = items.map((item) =>
    column ? splitPrice(item, column) : null,
  );
  const layoutAt = (size: number, texts: string[]): ListLayout => {
    let clipped = false;
    applyFont(ctx, spec, size);
    const spacing = (spec.letterSpacing * size) / spec.size;
    const indent = measure(ctx, layer.bullet, spacing) + size * 0.5;
    const lineHeightPx = size * spec.lineHeight;
    const gap = (layer.gap * size) / layer.size;
    const itemWidth = Math.max(1, layer.width - indent);
    const prices = texts.map((_, index): PlacedPrice | null => {
      const parts = priced[index];
      if (!parts) return null;
      const width = measure(ctx, parts.price, spacing);
      const nameWidth = nameWidthBeside(width, itemWidth, size);
      return nameWidth === null ? null : { price: parts.price, width, nameWidth };
    });
    // maxLines applies per item: a long item ends in "…" rather than crowding out the others.
    const wrapped = texts.map((whole, index) => {
      const price = prices[index];
      const text = price ? (priced[index]?.name ?? whole) : whole;
      const width = price ? price.nameWidth : itemWidth;
      // Format 2 keeps words, compounds and numbers with their units together in items too; a
      // name beside a price breaks into even lines, which leaves its last line room for leaders.
      const itemLines = format2
        ? wrapFormat2(ctx, text, price ? { ...format2, wrap: 'balanced' } : format2, size, width)
        : wrap(ctx, text, width, spacing);
      if (layer.maxLines === undefined || itemLines.length <= layer.maxLines) return itemLines;
      const kept = itemLines.slice(0, layer.maxLines);
      kept[kept.length - 1] = withEllipsis(ctx, kept[kept.length - 1] ?? '', width, spacing);
      clipped = true;
      return kept;
    });
    const lines = wrapped.reduce((sum, l) => sum + l.length, 0);
    return {
      size,
      items: wrapped,
      prices,
      indent,
      gap,
      lineHeightPx,
      height: lines * lineHeightPx + gap * (texts.length - 1),
      clipped,
    };
  };
  let truncated = false;
  let kept = items;
  let layout = layoutAt(spec.size, kept);
  if (layout.height > layer.height) {
    let lo = Math.ceil(spec.minSize);
    let hi = Math.floor(spec.size) - 1;
    let best: ListLayout | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const trial = layoutAt(mid, kept);
      if (trial.height <= layer.height) {
        best = trial;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    layout = best ?? layoutAt(spec.minSize, kept);
    // Still too tall at the smallest size: drop items from the end.
    while (layout.height > layer.height && kept.length > 1) {
      kept = kept.slice(0, -1);
      truncated = true;
      layout = layoutAt(layout.size, kept);
    }
  }
  return { spec, layout, kept, priced, column, truncated };
}

/**
 * The height a list's fitted items take in its box (no more than the box): a stack gives a list
 * the room its items need, so what follows a short list moves up.
 */
export function measureListLayer(dc: DrawContext, layer: ListLayer): number {
  const items = listItems(dc, layer);
  if (items.length === 0) return 0;
  return Math.min(layer.height, fitList(dc, layer, items).layout.height);
}

/** A bulleted list: items wrap with a hanging indent; the whole list shrinks to fit its box. */
export function drawListLayer(dc: DrawContext, layer: ListLayer): void {
  const { ctx, values } = dc;
  const items = listItems(dc, layer);
  if (items.length === 0) {
    reportEmptyText(dc, layer);
    return;
  }
  const family = fontFamilyOf(layer.font.family, values);
  for (const item of items)
    for (const missing of missingGlyphs(item, family)) dc.missingGlyphs.add(missing);
  const { spec, layout, kept, priced, column, ...fitted } = fitList(dc, layer, items);
  let truncated = fitted.truncated;
  const colour = resolveColour(layer.colour, values) ?? '#000000';
  const bulletColour = layer.bulletColour
    ? (resolveColour(layer.bulletColour, values) ?? colour)
    : colour;
  let y =
    layer.verticalAlign === 'bottom'
      ? layer.y + layer.height - layout.height
      : layer.verticalAlign === 'middle'
        ? layer.y + (layer.height - layout.height) / 2
        : layer.y;
  let overflow = false;
  let lines = 0;
  const columnRight = layer.x + layer.width;
  /** The price flush right on the name's last line, and the leaders up to it. */
  const drawPrice = (fitted: FittedText, nameBox: Box, price: PlacedPrice, leaders: boolean) => {
    const last = fitted.lines.length - 1;
    const baseline = lineBaselines(ctx, fitted, nameBox, 'top')[last];
    if (baseline === undefined) return;
    const priceX = columnRight - price.width;
    ctx.fillText(price.price, priceX, baseline);
    if (!leaders) return;
    const lastWidth = fitted.widths[last] ?? 0;
    const nameEnd =
      layer.align === 'left'
        ? nameBox.x + lastWidth
        : layer.align === 'right'
          ? nameBox.x + nameBox.width
          : nameBox.x + (nameBox.width + lastWidth) / 2;
    drawDotLeaders(ctx, nameEnd, priceX, columnRight, baseline, fitted.size);
  };
  ctx.save();
  ctx.beginPath();
  ctx.rect(layer.x, layer.y, layer.width, layer.height);
  ctx.clip();
  layout.items.forEach((itemLines, index) => {
    const remaining = layer.y + layer.height - y;
    const price = layout.prices[index] ?? null;
    let fitted: FittedText;
    if (itemLines.length * layout.lineHeightPx > remaining + 0.5) {
      // The only item left does not fit whole: ellipsise it within what remains.
      fitted = fitText(
        ctx,
        (price ? priced[index]?.name : kept[index]) ?? '',
        { ...spec, size: layout.size, minSize: layout.size, fit: 'ellipsis' },
        price ? price.nameWidth : layer.width - layout.indent,
        Math.max(layout.lineHeightPx, remaining),
      );
      truncated = true;
    } else {
      applyFont(ctx, spec, layout.size);
      const spacing = (spec.letterSpacing * layout.size) / spec.size;
      fitted = {
        size: layout.size,
        lines: itemLines,
        widths: itemLines.map((l) => measure(ctx, l, spacing)),
        lineHeightPx: layout.lineHeightPx,
        truncated: false,
        overflow: false,
      };
    }
    overflow ||= fitted.overflow;
    lines += fitted.lines.length;
    const box = {
      x: layer.x + layout.indent,
      y,
      width: layer.width - layout.indent,
      height: fitted.lines.length * layout.lineHeightPx,
    };
    drawLines(
      ctx,
      { ...fitted, lines: [layer.bullet], widths: [0] },
      { ...box, x: layer.x, height: layout.lineHeightPx },
      'left',
      'top',
      bulletColour,
    );
    if (price && column) {
      const nameBox = { ...box, width: price.nameWidth };
      drawLines(ctx, fitted, nameBox, layer.align, 'top', colour);
      drawPrice(fitted, nameBox, price, column.leader === 'dots');
    } else drawLines(ctx, fitted, box, layer.align, 'top', colour);
    y += box.height + layout.gap;
  });
  ctx.restore();
  dc.textReports.push({
    id: layer.id,
    fittedSize: layout.size,
    lines,
    truncated: truncated || layout.clipped,
    overflow: overflow || layout.height > layer.height + 0.5,
  });
}
