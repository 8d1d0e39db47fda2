import { formatCompact } from './compact-number.js';
import type { NumberFormat } from './template-format.js';

/**
 * Numbers and dates as a template prints them, shared by the engine (every render) and the UI
 * (the mapping's row preview shows a cell as it will print). Deterministic: dates are read as UTC
 * calendar dates and every Intl call names its locale.
 */

/** Currencies for `style: "currency"` formats that name none. */
const LOCALE_CURRENCY: Record<string, string> = {
  'vi-VN': 'VND',
  'en-US': 'USD',
  'en-GB': 'GBP',
  'en-AU': 'AUD',
  'en-CA': 'CAD',
  'ja-JP': 'JPY',
  'ko-KR': 'KRW',
  'zh-CN': 'CNY',
  'th-TH': 'THB',
  'id-ID': 'IDR',
  'en-SG': 'SGD',
  'de-DE': 'EUR',
  'fr-FR': 'EUR',
  'es-ES': 'EUR',
  'it-IT': 'EUR',
  'nl-NL': 'EUR',
};

/** Intl formatters are slow to build and batch rows repeat them. */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** `percent` follows Intl: 0.25 shows as 25 %. */
export function formatNumber(
  value: number,
  format: NumberFormat | undefined,
  locale: string,
): string {
  const style = format?.style ?? 'decimal';
  if (format?.notation === 'compact') {
    const currency =
      style === 'currency' ? (format.currency ?? LOCALE_CURRENCY[locale] ?? 'USD') : undefined;
    const text = formatCompact(
      value,
      {
        style,
        currency,
        maximumFractionDigits: format.maximumFractionDigits,
        minimumFractionDigits: format.minimumFractionDigits,
      },
      locale,
    );
    return `${format.prefix ?? ''}${text}${format.suffix ?? ''}`;
  }
  const options: Intl.NumberFormatOptions = { style };
  if (style === 'currency') options.currency = format?.currency ?? LOCALE_CURRENCY[locale] ?? 'USD';
  if (format?.minimumFractionDigits !== undefined) {
    options.minimumFractionDigits = format.minimumFractionDigits;
  }
  if (format?.maximumFractionDigits !== undefined) {
    options.maximumFractionDigits = Math.max(
      format.maximumFractionDigits,
      format.minimumFractionDigits ?? 0,
    );
  }
  if (format?.useGrouping !== undefined) options.useGrouping = format.useGrouping;
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, formatter);
  }
  const text = formatter.format(value);
  return `${format?.prefix ?? ''}${text}${format?.suffix ?? ''}`;
}

export function defaultDatePattern(locale: string): string {
  if (locale === 'vi-VN') return 'dd/MM/yyyy';
  if (locale === 'en-US') return 'MMM d, yyyy';
  return 'yyyy-MM-dd';
}

const DATE_TOKEN = /yyyy|yy|MMMM|MMM|MM|M|dd|d|EEEE|EEE|'[^']*'/g;

/** Formats an ISO `YYYY-MM-DD` date with tokens d dd M MM MMM MMMM yy yyyy EEE EEEE ('quoted' literal). */
export function formatDate(isoDate: string, pattern: string | undefined, locale: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const part = (options: Intl.DateTimeFormatOptions): string =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return (pattern ?? defaultDatePattern(locale)).replace(DATE_TOKEN, (token) => {
    switch (token) {
      case 'yyyy':
        return pad(y, 4);
      case 'yy':
        return pad(y % 100, 2);
      case 'MMMM':
        return part({ month: 'long' });
      case 'MMM':
        return part({ month: 'short' });
      case 'MM':
        return pad(m, 2);
      case 'M':
        return String(m);
      case 'dd':
        return pad(d, 2);
      case 'd':
        return String(d);
      case 'EEEE':
        return part({ weekday: 'long' });
      case 'EEE':
        return part({ weekday: 'short' });
      default:
        return token.slice(1, -1);
    }
  });
}
