import type { NumberFormat, Template, Variable } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';

/**
 * Formatting of number and date values and `{{placeholder}}` interpolation. Nothing here reads
 * the machine's time zone or default locale: a render is the same on every machine.
 */

const DEFAULT_DATE_PATTERNS: Record<string, string> = {
  'vi-VN': 'dd/MM/yyyy',
  vi: 'dd/MM/yyyy',
  'en-US': 'MMM d, yyyy',
  'en-GB': 'd MMM yyyy',
};

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `vi-VN` + VND currency gives `1.250.000 ₫`. A percent value of 25 shows as 25 %. */
export function formatNumber(
  value: number,
  locale: string,
  format: NumberFormat | undefined,
): string {
  const key = `${locale}|${JSON.stringify(format ?? {})}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    const options: Intl.NumberFormatOptions = { style: format?.style ?? 'decimal' };
    if (format?.style === 'currency')
      options.currency = format.currency ?? (locale === 'vi-VN' ? 'VND' : 'USD');
    if (format?.minimumFractionDigits !== undefined)
      options.minimumFractionDigits = format.minimumFractionDigits;
    if (format?.maximumFractionDigits !== undefined)
      options.maximumFractionDigits = format.maximumFractionDigits;
    if (format?.useGrouping !== undefined) options.useGrouping = format.useGrouping;
    formatter = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, formatter);
  }
  // People type 25 for 25 %, not 0.25.
  const shown = format?.style === 'percent' ? value / 100 : value;
  return `${format?.prefix ?? ''}${formatter.format(shown)}${format?.suffix ?? ''}`;
}

/** Formats an ISO date (YYYY-MM-DD) with a pattern of d dd M MM MMM MMMM yy yyyy EEE EEEE. */
export function formatDate(iso: string, locale: string, pattern?: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const chosen =
    pattern ??
    DEFAULT_DATE_PATTERNS[locale] ??
    DEFAULT_DATE_PATTERNS[locale.split('-')[0] ?? ''] ??
    'yyyy-MM-dd';
  const name = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  return chosen.replace(/yyyy|yy|MMMM|MMM|MM|M|dd|d|EEEE|EEE|'[^']*'/g, (token) => {
    switch (token) {
      case 'yyyy':
        return String(year).padStart(4, '0');
      case 'yy':
        return String(year % 100).padStart(2, '0');
      case 'MMMM':
        return name({ month: 'long' });
      case 'MMM':
        return name({ month: 'short' });
      case 'MM':
        return String(month).padStart(2, '0');
      case 'M':
        return String(month);
      case 'dd':
        return String(day).padStart(2, '0');
      case 'd':
        return String(day);
      case 'EEEE':
        return name({ weekday: 'long' });
      case 'EEE':
        return name({ weekday: 'short' });
      default:
        return token.slice(1, -1);
    }
  });
}

/** A value as text for placeholders: numbers and dates formatted, lists joined, enums labelled. */
export function displayValue(
  variable: Variable | undefined,
  value: ResolvedValue,
  templateLocale: string,
): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return '';
  if (variable?.type === 'number' && typeof value === 'number') {
    return formatNumber(value, variable.locale ?? templateLocale, variable.format);
  }
  if (variable?.type === 'date' && typeof value === 'string') {
    return formatDate(value, variable.locale ?? templateLocale, variable.format);
  }
  if (variable?.type === 'enum' && typeof value === 'string') {
    return variable.options.find((o) => o.value === value)?.label ?? value;
  }
  return String(value);
}

/** Replaces `{{name}}` with each variable's display value; unknown names become empty. */
export function interpolate(
  text: string,
  template: Template,
  values: Record<string, ResolvedValue>,
): string {
  return text.replace(/\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g, (_match, name: string) => {
    const variable = template.variables.find((v) => v.name === name);
    return displayValue(variable, values[name] ?? null, template.locale);
  });
}
