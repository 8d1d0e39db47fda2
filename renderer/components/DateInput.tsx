import { useEffect, useRef, useState, type ReactElement } from 'react';
import { parseLocaleDate } from '../../shared/cell-values';
import { useT } from '../i18n/i18n';
import { Button } from './ui';

/**
 * A date typed the way the template's market writes it, which is how the image prints it
 * (`14/02/2026` in vi-VN, `02/14/2026` in en-US), read by the rule a batch reads a spreadsheet
 * cell with. A native date field would show the browser's order instead, whatever the UI's
 * language. The calendar button still opens the system's picker. Text that is no date is handed
 * on as text, so the form can say so.
 */
export function DateInput({
  id,
  value,
  onChange,
  locale,
  describedBy,
  invalid,
  label,
}: {
  id?: string;
  value: unknown;
  onChange: (value: string | null) => void;
  locale: string;
  describedBy?: string | undefined;
  invalid?: boolean;
  /** Names the field when no <label> points at it. */
  label?: string;
}): ReactElement {
  const t = useT();
  const picker = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => displayDate(value, locale));
  // Follow outside changes (a reset, the picker) without rewriting what is being typed.
  useEffect(() => {
    if (readDate(text, locale) !== (value ?? null)) setText(displayDate(value, locale));
  }, [value, text, locale]);
  const iso = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
  return (
    <span className="date-input">
      <input
        id={id}
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="input"
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={datePattern(locale)}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(readDate(e.target.value, locale));
        }}
      />
      <Button
        variant="ghost"
        size="sm"
        icon="calendar"
        aria-label={t('common.pickDate')}
        title={t('common.pickDate')}
        onClick={() => picker.current?.showPicker()}
      />
      <input
        ref={picker}
        className="visually-hidden"
        type="date"
        tabIndex={-1}
        aria-hidden
        value={iso}
        onChange={(e) => onChange(e.target.value || null)}
      />
    </span>
  );
}

/** null for an empty field, the ISO date, or the text itself when it is no date. */
export function readDate(text: string, locale: string): string | null {
  if (text.trim() === '') return null;
  return parseLocaleDate(text, locale) ?? text;
}

/** dd/mm/yyyy, or mm/dd/yyyy for en-US: the order parseLocaleDate reads. */
export function datePattern(locale: string): string {
  return locale === 'en-US' ? 'mm/dd/yyyy' : 'dd/mm/yyyy';
}

export function displayDate(value: unknown, locale: string): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const [, year, month, day] = match;
  return locale === 'en-US' ? `${month}/${day}/${year}` : `${day}/${month}/${year}`;
}
