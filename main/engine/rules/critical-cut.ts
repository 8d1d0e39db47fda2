import type { Variable } from '../../../shared/template-format.js';
import type { ResolvedValue } from '../../render/render-protocol.js';
import { placeholderNames } from '../format-value.js';
import type { Rule } from './rule-types.js';

/**
 * A critical value (a name, phone, code, price or figure: docs/templates.md, "Critical values")
 * is never ended with "…" while the values in its layer keep to their fields' maxLength: then
 * the cut is the template's, not the row's, and the part cut may be the ad's only call to action.
 */
export const criticalCut: Rule = (page) =>
  page.layers.flatMap((layer) => {
    if (layer.kind !== 'text' || !page.reports.get(layer.id)?.truncated) return [];
    const { template, values } = page.dc;
    const variables = placeholderNames(layer.text).flatMap((name) => {
      const variable = template.variables.find((v) => v.name === name);
      return variable ? [variable] : [];
    });
    const critical = variables.filter((v) => criticalOf(v));
    if (critical.length === 0) return [];
    if (!variables.every((v) => withinMaxLength(v, values[v.name] ?? null))) return [];
    const named = critical.map((v) => `{{${v.name}}} (${criticalOf(v)})`).join(', ');
    return [
      {
        rule: 'critical-cut' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" ends in "…" and cuts ${named}, a value within its field's maxLength. Give the layer a lower minSize, a line of its own or a larger box (a stack or fit group), so the whole value shows.`,
      },
    ];
  });

const criticalOf = (variable: Variable) => ('critical' in variable ? variable.critical : undefined);

function withinMaxLength(variable: Variable, value: ResolvedValue): boolean {
  if (!('maxLength' in variable) || variable.maxLength === undefined) return true;
  return typeof value !== 'string' || [...value].length <= variable.maxLength;
}
