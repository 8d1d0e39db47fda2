import { fillPlaceholders } from '../format-value.js';
import { transformCase } from '../text-case.js';
import type { Rule } from './rule-types.js';

export const MIN_CAPS_LEADING = 1.25;

/** A capital with a mark above it (Ế, Ự's hook, À, Ö): the marks reach into the line above. */
const CAPITAL_WITH_MARK_ABOVE =
  /\p{Lu}\p{M}*[\u0300-\u0315\u031A\u033D-\u0344\u0346\u034A-\u034C\u0350-\u0352\u0357\u035B\u0363-\u036F]/u;

/** Text in capitals: an uppercase transform, or a value with letters and no lowercase ones. */
function isCapitals(text: string, transform: string): boolean {
  if (transform === 'uppercase') return true;
  return /\p{Lu}/u.test(text) && !/\p{Ll}/u.test(text);
}

/**
 * Multi-line text set in capitals with marks above them needs leading of at least 1.25, or the
 * marks of one line touch the letters of the line above.
 */
export const capsLeading: Rule = (page) =>
  page.layers.flatMap((layer) => {
    if (layer.kind !== 'text' && layer.kind !== 'list') return [];
    if (layer.lineHeight >= MIN_CAPS_LEADING - 1e-6) return [];
    const report = page.reports.get(layer.id);
    if (!report || report.lines < 2) return [];
    let text: string;
    if (layer.kind === 'text') {
      const { template, values } = page.dc;
      text = transformCase(
        fillPlaceholders(layer.text.normalize('NFC'), template, values),
        layer.transform,
        template.locale,
      );
    } else {
      const items = page.dc.values[layer.items.var];
      text = (Array.isArray(items) ? items : [])
        .map((item) => transformCase(item, layer.transform, page.dc.template.locale))
        .join('\n');
    }
    const hasMarks = CAPITAL_WITH_MARK_ABOVE.test(text.normalize('NFD'));
    if (!isCapitals(text, layer.transform) || !hasMarks) return [];
    return [
      {
        rule: 'caps-leading' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" sets ${report.lines} lines of capitals with marks above (${text.slice(0, 24)}…) at line height ${layer.lineHeight}; the marks touch the line above. Use lineHeight ${MIN_CAPS_LEADING} or more.`,
      },
    ];
  });
