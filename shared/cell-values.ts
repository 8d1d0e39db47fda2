import type { VariableType } from './template-format.js';

/**
 * Spreadsheet cells arrive as text (CSV) or typed values (XLSX). This converts what people
 * actually type into what the template's variables accept: `1.250.000 ₫` for a vi-VN number,
 * `17/02/2026` for a date, `a | b | c` or one item per line for a list. Anything it cannot
 * read passes through unchanged, so validation reports it with the row's path.
 */
export function cellToValue(
  variable: { type: VariableType },
  cell: unknown,
  locale: string,
): unknown {
  if (cell === null || cell === undefined) return undefined;
  if (typeof cell === 'string' && cell.trim() === '') return undefined;
  // A JSON record's object or list is no cell a spreadsheet could hold: validation refuses it,
  // rather than a text layer printing "[object Object]".
  if (typeof cell === 'object' && !(cell instanceof Date)) return cell;
  switch (variable.type) {
    case 'number':
      return typeof cell === 'string' ? (parseLocaleNumber(cell, locale) ?? cell) : cell;
    case 'date':
      return typeof cell === 'string' ? (parseLocaleDate(cell, locale) ?? cell) : cell;
    case 'list':
      if (typeof cell !== 'string') return cell;
      return cell
        .split(/\r?\n|\s\|\s|\|/)
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'enum':
    case 'colour':
    case 'image':
      return typeof cell === 'string' ? cell.trim() : String(cell);
    default:
      return typeof cell === 'string' ? cell : String(cell);
  }
}

/** Per locale, once: building a number format per cell took more of a batch's time than SQLite. */
const separatorsByLocale = new Map<string, { group: string; decimal: string }>();

function separators(locale: string): { group: string; decimal: string } {
  let known = separatorsByLocale.get(locale);
  if (!known) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    known = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    };
    separatorsByLocale.set(locale, known);
  }
  return known;
}

/** `1.250.000 ₫` (vi-VN), `$1,250.50` (en-US), `-12,5 %`; null when it is not a number. */
export function parseLocaleNumber(text: string, locale: string): number | null {
  let s = text.trim().replace(/[\u00a0\u202f\s]/g, '');
  s = s.replace(/^(?:VND|USD|EUR|[₫$€£¥đ])+|(?:VND|USD|EUR|[₫$€£¥đ%])+$/giu, '');
  if (/^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(s)) {
    // Plain machine notation, unless the locale groups thousands with dots (1.250 in vi-VN).
    const { group } = separators(locale);
    if (!(group === '.' && /^\d{1,3}(\.\d{3})+$/.test(s))) return Number(s);
  }
  const { group, decimal } = separators(locale);
  const groupChar = group.replace(/[\u00a0\u202f]/g, '');
  // Group separators only between groups of three ("1,5" is no number in en-US, not 15).
  const g = escapeRegExp(groupChar);
  const d = escapeRegExp(decimal);
  const grouped =
    groupChar !== '' && new RegExp(`^[+-]?\\d{1,3}(?:${g}\\d{3})+(?:${d}\\d+)?$`).test(s);
  if (!grouped && !new RegExp(`^[+-]?\\d+(?:${d}\\d+)?$`).test(s)) return null;
  const normalised = (grouped ? s.split(groupChar).join('') : s).replace(decimal, '.');
  return /^[+-]?\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : null;
}

/** ISO dates pass through; `17/02/2026` is day-first except for en-US (month-first). */
export function parseLocaleDate(text: string, locale: string): string | null {
  const s = text.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) return s.slice(0, 10);
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (!match) return null;
  const [a, b, year] = [Number(match[1]), Number(match[2]), match[3]];
  const [month, day] = locale === 'en-US' ? [a, b] : [b, a];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
