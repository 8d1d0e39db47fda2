import type { PageSpec } from './template-format.js';

/**
 * Physical page sizes a print layout starts from (trim sizes, portrait; swap for landscape), and
 * the conversions between a page's unit, its pixels at the layout's DPI, and PDF points.
 */
export const PAGE_PRESETS = {
  a4: { label: 'A4', unit: 'mm', width: 210, height: 297 },
  a5: { label: 'A5', unit: 'mm', width: 148, height: 210 },
  a6: { label: 'A6', unit: 'mm', width: 105, height: 148 },
  letter: { label: 'US Letter', unit: 'in', width: 8.5, height: 11 },
  card: { label: 'CR80 card', unit: 'mm', width: 53.98, height: 85.6 },
  badge: { label: '4 × 3 in badge', unit: 'in', width: 3, height: 4 },
} as const satisfies Record<
  string,
  { label: string; unit: PageSpec['unit']; width: number; height: number }
>;
export type PagePreset = keyof typeof PAGE_PRESETS;

export const POINTS_PER_INCH = 72;

/** How many of the unit make an inch. */
export function unitsPerInch(unit: PageSpec['unit']): number {
  return unit === 'mm' ? 25.4 : 1;
}

/** A length in the page's unit as pixels at its DPI (not rounded). */
export function unitToPixels(page: Pick<PageSpec, 'unit' | 'dpi'>, length: number): number {
  return (length / unitsPerInch(page.unit)) * page.dpi;
}

/** The layout's canvas size for a page: the trim size at the page's DPI, rounded. */
export function pagePixelSize(page: Pick<PageSpec, 'unit' | 'dpi' | 'width' | 'height'>): {
  width: number;
  height: number;
} {
  return {
    width: Math.round(unitToPixels(page, page.width)),
    height: Math.round(unitToPixels(page, page.height)),
  };
}
