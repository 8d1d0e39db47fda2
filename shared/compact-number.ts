/**
 * Compact numbers as shops write them: "12,5 tỷ", "1,2 triệu", "990K" in Vietnamese; "12.5M",
 * "990K", "1.2B" in English. Intl's own compact form for vi-VN ("13 Tr", "990 N", "1,2 T") is
 * not what anyone prints on a price tag, so Vietnamese has its own rule here; other locales use
 * Intl's short compact notation.
 */

export interface CompactOptions {
  style: 'decimal' | 'currency' | 'percent';
  currency: string | undefined;
  /** Fraction digits of the scaled number; 1 when the format names none. */
  maximumFractionDigits: number | undefined;
  minimumFractionDigits: number | undefined;
}

/** Thresholds in Vietnamese: K for thousands (as shops write it), then words. No-break spaces keep "12,5 tỷ" on one line. */
const VIETNAMESE_UNITS: ReadonlyArray<{ scale: number; unit: string }> = [
  { scale: 1e12, unit: '\u00A0nghìn tỷ' },
  { scale: 1e9, unit: '\u00A0tỷ' },
  { scale: 1e6, unit: '\u00A0triệu' },
  { scale: 1e3, unit: 'K' },
];

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale, options);
    formatters.set(key, found);
  }
  return found;
}

export function formatCompact(value: number, options: CompactOptions, locale: string): string {
  const maxDigits = Math.max(
    options.maximumFractionDigits ?? 1,
    options.minimumFractionDigits ?? 0,
  );
  const minDigits = options.minimumFractionDigits ?? 0;
  if (locale === 'vi-VN' || locale === 'vi')
    return vietnamese(value, options, maxDigits, minDigits);
  const intl: Intl.NumberFormatOptions = {
    notation: 'compact',
    compactDisplay: 'short',
    style: options.style,
    maximumFractionDigits: maxDigits,
    minimumFractionDigits: minDigits,
  };
  if (options.style === 'currency') intl.currency = options.currency ?? 'USD';
  return formatter(locale, intl).format(value);
}

function vietnamese(
  value: number,
  options: CompactOptions,
  maxDigits: number,
  minDigits: number,
): string {
  if (options.style === 'percent') {
    return formatter('vi-VN', { style: 'percent', maximumFractionDigits: maxDigits }).format(value);
  }
  const digits = formatter('vi-VN', {
    maximumFractionDigits: maxDigits,
    minimumFractionDigits: minDigits,
  });
  const round = (n: number) => Number(n.toFixed(maxDigits));
  const magnitude = Math.abs(value);
  let text = digits.format(value);
  for (let i = 0; i < VIETNAMESE_UNITS.length; i++) {
    const { scale, unit } = VIETNAMESE_UNITS[i]!;
    if (magnitude < scale) continue;
    let scaled = round(value / scale);
    let chosen = unit;
    // 999.960 rounds to 1.000K: say 1 triệu instead.
    const bigger = VIETNAMESE_UNITS[i - 1];
    if (bigger && Math.abs(scaled) * scale >= bigger.scale) {
      scaled = round(value / bigger.scale);
      chosen = bigger.unit;
    }
    text = `${digits.format(scaled)}${chosen}`;
    break;
  }
  // "990K", "12,5 tỷ": a shop writes the đồng amount without its symbol; other currencies keep theirs.
  if (options.style === 'currency' && options.currency && options.currency !== 'VND') {
    const symbol = formatter('vi-VN', { style: 'currency', currency: options.currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value;
    if (symbol) text = `${text}\u00A0${symbol}`;
  }
  return text;
}
