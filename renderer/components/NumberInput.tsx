import { useEffect, useState, type ReactElement } from 'react';
import { parseLocaleNumber } from '../../shared/cell-values';

/**
 * A number typed the way the template's market writes it (`1.250.000` in vi-VN), read by the
 * same rule a batch reads a spreadsheet cell with. Text that is no number is handed on as text,
 * so the field can say so instead of rendering a wrong price.
 */
export function NumberInput({
  id,
  value,
  onChange,
  locale,
  describedBy,
  invalid,
}: {
  id: string;
  value: unknown;
  onChange: (value: number | string | null) => void;
  locale: string;
  describedBy: string | undefined;
  invalid: boolean;
}): ReactElement {
  const [text, setText] = useState(() => asText(value, locale));
  // Follow outside changes ("Reset values") without rewriting what is being typed.
  useEffect(() => {
    if (!sameValue(readNumber(text, locale), value)) setText(asText(value, locale));
  }, [value, text, locale]);
  return (
    <input
      id={id}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      className="input num"
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(readNumber(e.target.value, locale));
      }}
    />
  );
}

/** null for an empty field, the number, or the text itself when it is no number. */
export function readNumber(text: string, locale: string): number | string | null {
  if (text.trim() === '') return null;
  return parseLocaleNumber(text, locale) ?? text;
}

/**
 * A value as the market writes it (7.490.000 in vi-VN, 7,490,000 in en-US), so a sample value
 * and a typed one look alike; plain digits when the written form would not read back the same.
 */
function asText(value: unknown, locale: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const written = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(value);
    return parseLocaleNumber(written, locale) === value ? written : String(value);
  }
  return typeof value === 'string' ? value : '';
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || ((a === null || a === undefined) && (b === null || b === undefined));
}
