import type { Ratio } from '../../../shared/template-format.js';
import type { Rule, RulePage } from './rule-types.js';

/**
 * The smallest text a ratio may show after fitting, in layout pixels: a 1080-wide post is seen
 * at phone width, a link preview (og) at ~500 px wide, a 1920 landscape on a shrunk player.
 */
export const MIN_TEXT_SIZE: Record<Ratio, number> = {
  square: 24,
  portrait: 24,
  story: 24,
  landscape: 32,
  og: 28,
};

/**
 * The smallest printed text, in points: 6 pt is the floor of legible small print (a ticket's
 * terms, a label's code); anything smaller blurs in toner and is unreadable without a loupe.
 */
export const MIN_PRINT_TEXT_PT = 6;

const POINTS_PER_INCH = 72;

/** The least size in layout pixels, and how to say it; custom pixel layouts have no minimum. */
function minimumOf(page: RulePage): { px: number; says: (px: number) => string } | undefined {
  if (page.print) {
    const dpi = page.print.dpi;
    const pt = (px: number) => `${round((px * POINTS_PER_INCH) / dpi)} pt`;
    return {
      px: (MIN_PRINT_TEXT_PT * dpi) / POINTS_PER_INCH,
      says: (px) => `${pt(px)} (${round(px)} px at ${dpi} dpi)`,
    };
  }
  const px = MIN_TEXT_SIZE[page.ratio as Ratio] as number | undefined;
  return px === undefined ? undefined : { px, says: (n) => `${round(n)} px` };
}

export const minTextSize: Rule = (page) => {
  const min = minimumOf(page);
  if (!min) return [];
  const where = page.print ? 'a print layout' : page.ratio;
  return page.layers.flatMap((layer) => {
    if ((layer.kind !== 'text' && layer.kind !== 'list') || layer.decorative) return [];
    const report = page.reports.get(layer.id);
    if (!report || report.lines === 0 || report.fittedSize >= min.px - 1e-6) return [];
    return [
      {
        rule: 'text-too-small' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" is drawn at ${min.says(report.fittedSize)}; ${where} needs at least ${min.says(min.px)}. Give it a larger box or size (and minSize ≥ ${Math.ceil(min.px - 1e-6)}), fewer lines of text, or mark it decorative if nobody needs to read it.`,
      },
    ];
  });
};

const round = (n: number) => Math.round(n * 10) / 10;
