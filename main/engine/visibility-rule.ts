import { parseLocaleNumber } from '../../shared/cell-values.js';
import type { VisibilityCondition, VisibilityRule } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';

/**
 * Whether a layer's `visibleWhen` holds for a row's values. `all` needs every rule, `any` one;
 * a condition needs each operator it sets. Numbers are read as a cell would be in the
 * template's locale, so a text value "1.250.000" compares as 1250000 in vi-VN.
 */
export function ruleHolds(
  rule: VisibilityRule,
  values: Readonly<Record<string, ResolvedValue>>,
  locale: string,
): boolean {
  if ('all' in rule) return rule.all.every((child) => ruleHolds(child, values, locale));
  if ('any' in rule) return rule.any.some((child) => ruleHolds(child, values, locale));
  return conditionHolds(
    rule,
    Object.hasOwn(values, rule.var) ? values[rule.var] : undefined,
    locale,
  );
}

export function isEmptyValue(value: ResolvedValue | undefined): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

function conditionHolds(
  condition: VisibilityCondition,
  value: ResolvedValue | undefined,
  locale: string,
): boolean {
  const text = String(value ?? '');
  if (condition.notEmpty !== undefined && condition.notEmpty === isEmptyValue(value)) return false;
  if (condition.equals !== undefined && text !== String(condition.equals)) return false;
  if (condition.notEquals !== undefined && text === String(condition.notEquals)) return false;
  if (condition.in !== undefined && !condition.in.some((item) => String(item) === text))
    return false;
  if (condition.gt === undefined && condition.lt === undefined && !condition.between) return true;
  const number = numberOf(value, locale);
  if (number === null) return false;
  if (condition.gt !== undefined && !(number > condition.gt)) return false;
  if (condition.lt !== undefined && !(number < condition.lt)) return false;
  if (condition.between && (number < condition.between[0] || number > condition.between[1]))
    return false;
  return true;
}

/** A number variable's number, or a text value read as a number; null when it is none. */
function numberOf(value: ResolvedValue | undefined, locale: string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') return parseLocaleNumber(value, locale);
  return null;
}
