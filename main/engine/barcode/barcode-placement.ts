import type { BarcodeSymbol } from './barcode-symbol.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where a code's parts go in a box, in whole units of the space it is given (device pixels of a
 * raster, layout pixels of a PDF): every module is the same whole number of units wide.
 */
export interface BarcodePlacement {
  /** One module, whole units. */
  module: number;
  /** The light area: the code, its quiet zones and its text. */
  area: Box;
  /** The first bar's (or the grid's) top left corner. */
  originX: number;
  originY: number;
  /** Bars from originY down: ordinary bars, and EAN/UPC guard bars. */
  barHeight: number;
  longBarHeight: number;
  /** The human-readable text's size and where its baseline sits; null without text. */
  text: { size: number; baseline: number } | null;
}

/** Digits of EAN/UPC text are set this many modules high (as at the GS1 nominal size). */
const EAN_TEXT_MODULES = 9;
/** Guard bars reach this many modules below the ordinary bars (GS1 General Specifications). */
const GUARD_EXTENSION = 5;
/** A figure's height as a share of the font size, close enough for bundled fonts. */
const FIGURE_HEIGHT = 0.72;
/** The most of a box's height a matrix code's text line takes. */
const MATRIX_TEXT_SHARE = 0.16;

/**
 * Places a linear code across the box's width (bars as tall as the box leaves after the text)
 * or a matrix code as large as fits, centred; modules are whole units, the quiet zones kept.
 */
export function placeBarcode(symbol: BarcodeSymbol, box: Box, withText: boolean): BarcodePlacement {
  const { quiet } = symbol.spec;
  if (symbol.shape === 'linear') {
    const modules = quiet.left + symbol.width + quiet.right;
    const module = Math.max(1, Math.floor(box.width / modules));
    const width = module * modules;
    const left = Math.round(box.x + (box.width - width) / 2);
    const top = Math.round(box.y);
    const height = Math.max(1, Math.round(box.height));
    const size = Math.min(EAN_TEXT_MODULES * module, height * 0.3);
    const ean = symbol.spec.text !== 'centred';
    // EAN/UPC digits start half a module under the bars; other text a module under.
    const band = !withText ? 0 : ean ? Math.ceil(module / 2 + size * 0.9) : module + size;
    const barHeight = Math.max(1, height - Math.round(band));
    const guard = ean && withText ? Math.min(GUARD_EXTENSION * module, band) : 0;
    return {
      module,
      area: { x: left, y: top, width, height },
      originX: left + quiet.left * module,
      originY: top,
      barHeight,
      longBarHeight: barHeight + guard,
      text: withText
        ? {
            size,
            baseline:
              top +
              barHeight +
              (ean ? module / 2 + size * FIGURE_HEIGHT : module + size * FIGURE_HEIGHT),
          }
        : null,
    };
  }
  const columns = symbol.columns + quiet.left + quiet.right;
  const rows = symbol.rows * symbol.rowHeight + quiet.left + quiet.right;
  const band = withText ? box.height * MATRIX_TEXT_SHARE : 0;
  const module = Math.max(1, Math.floor(Math.min(box.width / columns, (box.height - band) / rows)));
  const size = withText ? Math.min(band * 0.8, module * EAN_TEXT_MODULES) : 0;
  const width = module * columns;
  const height = module * rows + (withText ? Math.ceil(size * 1.1) : 0);
  const left = Math.round(box.x + (box.width - width) / 2);
  const top = Math.round(box.y + (box.height - height) / 2);
  return {
    module,
    area: { x: left, y: top, width, height },
    originX: left + quiet.left * module,
    originY: top + quiet.left * module,
    barHeight: symbol.rows * symbol.rowHeight * module,
    longBarHeight: symbol.rows * symbol.rowHeight * module,
    text: withText ? { size, baseline: top + module * rows + size * FIGURE_HEIGHT } : null,
  };
}
