import { placeBarcode } from '../barcode/barcode-placement.js';
import { encodeBarcode } from '../barcode/barcode-symbol.js';
import { fillPlaceholders } from '../format-value.js';
import type { Rule, RuleViolation } from './rule-types.js';

/** Below this many pixels per module a scanner or camera misreads a code on a screen. */
export const MIN_BARCODE_MODULE_PX = { linear: 2, matrix: 4 } as const;

/**
 * Bars shorter than this share of the code's width (quiet zones included) are hard to sweep
 * with a scanner's line or frame with a camera: ISO/IEC 15417 (Code 128) asks for 15 %.
 */
export const MIN_BAR_HEIGHT_SHARE = 0.15;

const MM_PER_INCH = 25.4;
const formatMm = (mm: number) => `${Number(mm.toFixed(3))} mm`;

/**
 * Barcodes drawn large enough to scan, as the barcode layer draws them (whole pixels, quiet
 * zones kept): on a print layout each module at least the symbology's minimum X-dimension at
 * the layout's DPI (EAN/UPC 0.264 mm, ITF-14 0.495 mm, others 0.25 mm); on a screen at least
 * 2 px (linear) or 4 px (2D). Linear codes also need bars of a height a scanner can find.
 */
export const barcodeScannable: Rule = (page): RuleViolation[] =>
  page.layers.flatMap((layer): RuleViolation[] => {
    if (layer.kind !== 'barcode') return [];
    const value = fillPlaceholders(layer.value, page.dc.template, page.dc.values).trim();
    if (!value) return [];
    const encoded = encodeBarcode(layer.symbology, value);
    // A value that cannot be encoded is the render's 422, not a rule's warning.
    if (!encoded.ok) return [];
    const { symbol } = encoded;
    const { spec } = symbol;
    const placement = placeBarcode(symbol, layer, layer.humanReadable ?? symbol.spec.humanReadable);
    const violations: RuleViolation[] = [];
    const needed = page.print
      ? Math.ceil((spec.minModuleMm * page.print.dpi) / MM_PER_INCH - 1e-9)
      : MIN_BARCODE_MODULE_PX[spec.shape];
    const modulesAcross = placement.area.width / placement.module;
    if (placement.module < needed) {
      const width = Math.ceil(needed * modulesAcross);
      const fix = `Make the box at least ${width} px wide${spec.shape === 'matrix' ? ` and ${Math.ceil((needed * placement.area.height) / placement.module)} px high` : ''}, or shorten the value.`;
      const message = page.print
        ? `"${layer.id}" prints ${spec.label} modules of ${formatMm((placement.module * MM_PER_INCH) / page.print.dpi)} (${placement.module} px at ${page.print.dpi} dpi); scanners need ${formatMm(spec.minModuleMm)}, ${needed} px. ${fix}`
        : `"${layer.id}" draws ${spec.label} modules of ${placement.module} px; a scannable code needs ${needed} px. ${fix}`;
      violations.push({ rule: 'barcode-too-dense', layer: layer.id, page: page.page, message });
    }
    if (symbol.shape === 'linear') {
      const minHeight = Math.ceil(MIN_BAR_HEIGHT_SHARE * placement.area.width);
      if (placement.barHeight < minHeight) {
        violations.push({
          rule: 'barcode-too-short',
          layer: layer.id,
          page: page.page,
          message: `"${layer.id}" draws ${spec.label} bars ${placement.barHeight} px high, under ${Math.round(MIN_BAR_HEIGHT_SHARE * 100)} % of its ${placement.area.width} px width; make the box at least ${minHeight + (layer.height - placement.barHeight)} px high.`,
        });
      }
    }
    return violations;
  });
