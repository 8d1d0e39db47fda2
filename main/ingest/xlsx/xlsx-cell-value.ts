import type { CellValue } from '../rows/row-source-types.js';

/**
 * One xlsx cell as the batch sees it, from the XML as the file stores it. Numbers stay numbers;
 * dates become ISO text (`YYYY-MM-DD`, with `THH:mm:ss` when there is a time, `HH:mm:ss` for a
 * time alone); booleans `TRUE`/`FALSE`; rich text its plain text; errors their code (`#NAME?`);
 * formulas their cached value, never evaluated. A formula with no cached value is null.
 */

const MS_PER_DAY = 86_400_000;

/** A `<c>` element as read: its type (`t`), whether it holds a formula, and its texts. */
export interface RawCell {
  /** The `t` attribute: n (default), s, str, inlineStr, b, e, d. */
  type: string;
  /** Index into the workbook's cell formats (`s`). */
  style: number;
  /** The text of `<v>`: the value, or a formula's cached result; undefined when absent. */
  value: string | undefined;
  /** The plain text of `<is>` (an inline string), runs joined, phonetic readings left out. */
  inline: string | undefined;
}

export interface CellContext {
  sharedStrings: readonly (string | null)[];
  /** Per cell format: whether its number format shows a date or time. */
  dateStyles: readonly boolean[];
  date1904: boolean;
}

export function convertCell(cell: RawCell, context: CellContext): CellValue {
  const text = cell.value;
  if (text === undefined) {
    return cell.inline === undefined ? null : decodeOoxmlEscapes(cell.inline).normalize('NFC');
  }
  switch (cell.type) {
    case 's': {
      const index = Number(text);
      return Number.isInteger(index) ? (context.sharedStrings[index] ?? null) : null;
    }
    case 'str':
    case 'inlineStr':
      return decodeOoxmlEscapes(text).normalize('NFC');
    case 'b':
      return isTrueText(text) ? 'TRUE' : 'FALSE';
    case 'e':
      return text;
    case 'd':
      return isoDateText(text);
    default: {
      if (text.trim() === '') return null;
      const number = Number(text);
      if (!Number.isFinite(number)) return text.normalize('NFC');
      return context.dateStyles[cell.style] ? serialToIso(number, context.date1904) : number;
    }
  }
}

function isTrueText(text: string): boolean {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'true') return true;
  const number = Number(trimmed);
  return trimmed !== '' && Number.isFinite(number) && number !== 0;
}

/** `t="d"` holds ISO 8601 text: kept in the shape serial dates take (no zone, no milliseconds). */
function isoDateText(text: string): string {
  const match = /^(\d{4}-\d\d-\d\d)?(?:T?(\d\d:\d\d:\d\d)(?:\.\d+)?)?Z?$/.exec(text.trim());
  if (!match || (!match[1] && !match[2])) return text;
  const [, day, time] = match;
  if (!day) return time as string;
  return time && time !== '00:00:00' ? `${day}T${time}` : day;
}

/** OOXML writes characters XML cannot hold as `_xHHHH_` (e.g. `_x0007_` for BEL). */
export function decodeOoxmlEscapes(text: string): string {
  if (!text.includes('_x')) return text; // most text has none: skip the regular expression
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Whether a number format shows a date or time (quoted text, escapes and colours ignored). */
export function isDateFormat(format: string | undefined): boolean {
  if (!format || format === 'General') return false;
  const cleaned = format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(cleaned);
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * Excel serial → ISO text. The 1900 system counts a 29 February 1900 that never was (serial 60),
 * so serials below 60 are one day later than plain arithmetic from 1899-12-30 gives; serial 60
 * itself is returned as Excel shows it. The 1904 system counts from 1904-01-01.
 */
export function serialToIso(serial: number, date1904: boolean): CellValue {
  if (!Number.isFinite(serial) || serial < 0) return serial;
  let seconds = Math.round(serial * 86_400);
  let days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const time =
    seconds > 0
      ? `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`
      : '';
  if (days === 0 && time) return time; // a time of day with no date
  if (!date1904 && days === 60) return time ? `1900-02-29T${time}` : '1900-02-29';
  if (!date1904 && days < 60) days += 1;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const date = new Date(epoch + days * MS_PER_DAY);
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return time ? `${day}T${time}` : day;
}
