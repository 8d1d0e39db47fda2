import type { Ratio } from '../../../shared/template-format.js';
import type { Rule } from './rule-types.js';

/**
 * The smallest text a ratio may show after fitting, in layout pixels: a 1080-wide post is seen
 * at phone width, a link preview (og) at ~500 px wide, a 1920 landscape on a shrunk player.
 * Print and custom layouts have no such rule.
 */
export const MIN_TEXT_SIZE: Record<Ratio, number> = {
  square: 24,
  portrait: 24,
  story: 24,
  landscape: 32,
  og: 28,
};

export const minTextSize: Rule = (page) => {
  const min = MIN_TEXT_SIZE[page.ratio as Ratio] as number | undefined;
  if (min === undefined) return [];
  return page.layers.flatMap((layer) => {
    if ((layer.kind !== 'text' && layer.kind !== 'list') || layer.decorative) return [];
    const report = page.reports.get(layer.id);
    if (!report || report.lines === 0 || report.fittedSize >= min - 1e-6) return [];
    return [
      {
        rule: 'text-too-small' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" is drawn at ${round(report.fittedSize)} px; ${page.ratio} needs at least ${min} px. Give it a larger box or size (and minSize ≥ ${min}), fewer lines of text, or mark it decorative if nobody needs to read it.`,
      },
    ];
  });
};

const round = (n: number) => Math.round(n * 10) / 10;
