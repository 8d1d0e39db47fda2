import type { Layout } from '../../api/types';
import { unitsPerInch } from '../../../shared/page-sizes';

/** How the inspector shows a length: pixels, or a print layout's mm or inches. */
export interface LengthUnit {
  suffix: string;
  step: number;
  /** Layout pixels → the shown number. */
  show: (pixels: number) => number;
  /** The typed number → layout pixels (whole pixels, as dragging gives). */
  read: (shown: number) => number;
}

const PIXELS: LengthUnit = { suffix: 'px', step: 1, show: (px) => px, read: (v) => v };

/** A print layout is edited in its page's unit (0.1 mm or 0.01 in); any other in pixels. */
export function lengthUnit(layout: Layout | undefined): LengthUnit {
  const page = layout?.page;
  if (!page) return PIXELS;
  const perPixel = unitsPerInch(page.unit) / page.dpi;
  const decimals = page.unit === 'mm' ? 10 : 100;
  return {
    suffix: page.unit,
    step: 1 / decimals,
    show: (px) => Math.round(px * perPixel * decimals) / decimals,
    read: (shown) => Math.round(shown / perPixel),
  };
}
