import type { SKRSContext2D } from '@napi-rs/canvas';
import type { BarcodeLayer } from '../../../shared/template-format.js';
import { placeBarcode, type BarcodePlacement, type Box } from '../barcode/barcode-placement.js';
import { expectedReading, READER_FORMATS } from '../barcode/barcode-reading.js';
import { encodeBarcode, type BarcodeSymbol } from '../barcode/barcode-symbol.js';
import { noteDrawnCode } from '../barcode/drawn-code.js';
import { humanReadablePieces } from '../barcode/barcode-text.js';
import type { DrawContext } from '../draw-context.js';
import { DEFAULT_FAMILY } from '../font-families.js';
import { fontShorthand, missingGlyphs } from '../fonts.js';
import { fillPlaceholders } from '../format-value.js';
import { codeLinkHref } from '../link-href.js';
import { annotateLink } from '../pdf-links.js';
import { resolveColour } from '../paint.js';
import { fontFamilyOf } from '../text-lines.js';

/** UPC's outer digits are set at this share of the other digits' size. */
const SMALL_DIGITS = 0.75;

/**
 * A barcode drawn from its module geometry: one path of rectangles (vector in a PDF), every
 * module the same whole number of pixels, the quiet zones painted with the background, and the
 * human-readable text in the layer's font; in a PDF, a link over it when it holds a web address.
 */
export function drawBarcodeLayer(dc: DrawContext, layer: BarcodeLayer): void {
  const { ctx, template, values } = dc;
  const value = fillPlaceholders(layer.value, template, values).trim();
  if (!value) return;
  const encoded = encodeBarcode(layer.symbology, value);
  // Values were checked when the job was prepared (barcode-problems.ts): a code that cannot be
  // encoded fails the render rather than print something that does not scan.
  if (!encoded.ok) throw new Error(`The barcode "${layer.id}" cannot be drawn: ${encoded.reason}`);
  const { symbol } = encoded;
  const withText = layer.humanReadable ?? symbol.spec.humanReadable;
  const transform = ctx.getTransform();
  // A raster's modules fall on whole device pixels (at any output scale), unless the layer is
  // turned; a PDF's are whole layout pixels, which the rules measure against the print DPI.
  const device = !dc.vector && transform.b === 0 && transform.c === 0 && transform.a > 0;
  const box: Box = device
    ? {
        x: transform.e + transform.a * layer.x,
        y: transform.f + transform.d * layer.y,
        width: transform.a * layer.width,
        height: transform.d * layer.height,
      }
    : layer;
  ctx.save();
  if (device) ctx.setTransform(1, 0, 0, 1, 0, 0);
  const placement = placeBarcode(symbol, box, withText);
  if (dc.codes) {
    noteDrawnCode(dc.codes, ctx, {
      layerId: layer.id,
      source: layer.value,
      label: symbol.spec.label,
      format: READER_FORMATS[symbol.input.symbology],
      expected: expectedReading(symbol.input),
      area: placement.area,
      module: placement.module,
    });
  }
  if (dc.placeOnly) {
    ctx.restore();
    return;
  }
  const background = resolveColour(layer.background, values);
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(placement.area.x, placement.area.y, placement.area.width, placement.area.height);
  }
  const foreground = resolveColour(layer.foreground, values) ?? '#000000';
  ctx.fillStyle = foreground;
  ctx.beginPath();
  tracePlacedModules(ctx, symbol, placement);
  ctx.fill();
  // A code holding a web address (a QR-like DataMatrix, a PDF417) is also a link in a PDF.
  annotateLink(dc, placement.area, codeLinkHref(value));
  if (placement.text) {
    const family = layer.font ? fontFamilyOf(layer.font.family, values) : DEFAULT_FAMILY;
    const pieces = humanReadablePieces(symbol);
    for (const piece of pieces)
      for (const missing of missingGlyphs(piece.text, family)) dc.missingGlyphs.add(missing);
    const font = (size: number) =>
      fontShorthand(family, layer.font?.weight ?? 400, layer.font?.style ?? 'normal', size);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    for (const piece of pieces) {
      let size = placement.text.size * (piece.small ? SMALL_DIGITS : 1);
      ctx.font = font(size);
      // A long line (a GS1 element string) shrinks to the code's width.
      const width = ctx.measureText(piece.text).width;
      if (width > placement.area.width) {
        size *= placement.area.width / width;
        ctx.font = font(size);
      }
      ctx.fillText(
        piece.text,
        placement.originX + piece.centre * placement.module,
        placement.text.baseline,
      );
    }
  }
  ctx.restore();
}

/** Adds the code's dark modules to the current path: bars, bearer bars, runs of a grid's rows. */
function tracePlacedModules(
  ctx: SKRSContext2D,
  symbol: BarcodeSymbol,
  placement: BarcodePlacement,
): void {
  const { module, originX, originY, area } = placement;
  if (symbol.shape === 'linear') {
    const bearer = (symbol.spec.bearer ?? 0) * module;
    if (bearer > 0) {
      // ITF-14's bearer bars frame the bars above and below, across the quiet zones.
      ctx.rect(area.x, originY, area.width, bearer);
      ctx.rect(area.x, originY + placement.barHeight - bearer, area.width, bearer);
    }
    for (const bar of symbol.bars) {
      const height = bar.long ? placement.longBarHeight : placement.barHeight;
      ctx.rect(originX + bar.x * module, originY + bearer, bar.width * module, height - 2 * bearer);
    }
    return;
  }
  // One rectangle per horizontal run of dark modules: a few hundred, not thousands.
  for (let row = 0; row < symbol.rows; row += 1) {
    let col = 0;
    while (col < symbol.columns) {
      if (!symbol.modules[row * symbol.columns + col]) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < symbol.columns && symbol.modules[row * symbol.columns + col]) col += 1;
      const height = symbol.rowHeight * module;
      ctx.rect(originX + start * module, originY + row * height, (col - start) * module, height);
    }
  }
}
