import type { Template, Variable } from '../../shared/template-format.js';
import { formatDate, formatNumber } from '../../shared/value-text.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import { KEEP_MAX_LENGTH, keepTogether } from './text/keep-together.js';

/**
 * Turns resolved values into the text a layer shows. Everything here is deterministic: dates are
 * read as UTC calendar dates and every Intl call names its locale, so neither the machine's time
 * zone nor its default locale can change a render.
 */

/** The text a value shows as: numbers and dates formatted, lists joined, empty as ''. */
export function formatValue(
  variable: Variable | undefined,
  value: ResolvedValue,
  templateLocale: string,
): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return '';
  if (!variable) return String(value);
  switch (variable.type) {
    case 'number':
      return typeof value === 'number'
        ? formatNumber(value, variable.format, variable.locale ?? templateLocale)
        : String(value);
    case 'date':
      return typeof value === 'string'
        ? formatDate(value, variable.format, variable.locale ?? templateLocale)
        : String(value);
    case 'enum':
      return variable.options.find((o) => o.value === value)?.label || String(value);
    default:
      return String(value);
  }
}

/** A `{{name}}` placeholder; global, for replace and matchAll. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]{0,63})\s*\}\}/g;

/**
 * Replaces `{{name}}` with the formatted value; a name that is not a variable stays as written.
 * With `keepCritical` (format 2 text), a critical value's spaces become keep-together spaces.
 */
export function fillPlaceholders(
  text: string,
  template: Template,
  values: Record<string, ResolvedValue>,
  keepCritical = false,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const variable = template.variables.find((v) => v.name === name);
    if (!variable) return whole;
    const formatted = formatValue(variable, values[name] ?? null, template.locale);
    const critical = 'critical' in variable ? variable.critical : undefined;
    return keepCritical && critical && formatted.length <= KEEP_MAX_LENGTH
      ? keepTogether(formatted, critical)
      : formatted;
  });
}

/** Names used as `{{placeholders}}` in a text. */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/**
 * Whether a layer's text is people's names and nothing else ("{{firstName}}",
 * "{{firstName}} {{lastName}}"): every placeholder a `critical: "name"` variable, and no words
 * of its own around them.
 */
export function holdsOnlyNames(text: string, template: Template): boolean {
  const names = placeholderNames(text);
  if (names.length === 0) return false;
  const allNames = names.every((name) => {
    const variable = template.variables.find((v) => v.name === name);
    return variable !== undefined && 'critical' in variable && variable.critical === 'name';
  });
  return allNames && text.replace(PLACEHOLDER, '').trim() === '';
}
