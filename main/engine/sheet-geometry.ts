import type { Layout } from '../../shared/template-format.js';
import { unitToPixels } from '../../shared/page-sizes.js';

/** Pixels per inch of a pixel layout (the five ratios, custom sizes): CSS pixels. */
export const CSS_DPI = 96;

/** Crop marks: 5 mm long, at least 3 mm from the trim (and never inside the bleed). */
export const CROP_MARK_MM = { length: 5, minOffset: 3, slug: 1 } as const;

/**
 * Where a layout lies on the sheet an output covers, in layout pixels: the trim (the layout's own
 * canvas, its 0,0 at `origin`), the bleed around it, and with crop marks the margin that holds
 * them. Raster outputs and PDF pages are this sheet: a PDF's MediaBox, BleedBox and TrimBox.
 */
export interface SheetGeometry {
  /** Layout pixels per inch: the page's DPI, or CSS_DPI for a pixel layout. */
  dpi: number;
  trimWidth: number;
  trimHeight: number;
  /** Bleed on every side of the trim. */
  bleed: number;
  /** Safe margin inside the trim. */
  safe: number;
  /** Distance from the sheet's edge to the trim: the bleed, or the crop-mark margin. */
  origin: number;
  width: number;
  height: number;
  /** Crop marks start `offset` from the trim and are `length` long; null for none. */
  marks: { offset: number; length: number } | null;
}

export function sheetGeometry(layout: Layout, cropMarks: boolean): SheetGeometry {
  const page = layout.page;
  const dpi = page?.dpi ?? CSS_DPI;
  const mm = (length: number) => unitToPixels({ unit: 'mm', dpi }, length);
  const bleed = page ? unitToPixels(page, page.bleed) : 0;
  const safe = page ? unitToPixels(page, page.safe) : 0;
  const marks = cropMarks
    ? { offset: Math.max(bleed, mm(CROP_MARK_MM.minOffset)), length: mm(CROP_MARK_MM.length) }
    : null;
  const origin = marks ? marks.offset + marks.length + mm(CROP_MARK_MM.slug) : bleed;
  return {
    dpi,
    trimWidth: layout.width,
    trimHeight: layout.height,
    bleed,
    safe,
    origin,
    width: layout.width + 2 * origin,
    height: layout.height + 2 * origin,
    marks,
  };
}

/** The sheet's raster size at a scale (what a png, jpeg, webp or avif output measures). */
export function sheetPixelSize(
  sheet: SheetGeometry,
  scale: number,
): { width: number; height: number } {
  return { width: Math.round(sheet.width * scale), height: Math.round(sheet.height * scale) };
}
