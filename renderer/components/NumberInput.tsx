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
  const [text, setText] = useState(() => asText(value));
  // Follow outside changes ("Reset values") without rewriting what is being typed.
  useEffect(() => {
    if (!sameValue(readNumber(text, locale), value)) setText(asText(value));
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

function asText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : '';
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || ((a === null || a === undefined) && (b === null || b === undefined));
}
