import type { CachedFormulaValue } from './formula-cache-scanner.js';
import type { CellValue } from './row-source-types.js';

/**
 * One xlsx cell as the batch sees it. Numbers stay numbers; dates become ISO text
 * (`YYYY-MM-DD`, with `THH:mm:ss` when there is a time, `HH:mm:ss` for a time alone);
 * booleans `TRUE`/`FALSE`; rich text its plain text; errors their code (`#NAME?`); formulas
 * their cached value, never evaluated. A formula with no cached value in the file is null.
 */

const MS_PER_DAY = 86_400_000;
// exceljs's serial→Date conversion uses the 1899-12-30 epoch (25569 days before 1970).
const EXCELJS_EPOCH_DAYS = 25_569;
const DATE1904_OFFSET_DAYS = 1_462;

export function convertCell(
  value: unknown,
  numFmt: string | undefined,
  date1904: boolean,
  cached: CachedFormulaValue | undefined,
): CellValue {
  if (cached) return convertCachedFormula(cached, numFmt, date1904);
  return convertPlain(value, numFmt, date1904);
}

function convertPlain(value: unknown, numFmt: string | undefined, date1904: boolean): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value.normalize('NFC');
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    const serial =
      value.getTime() / MS_PER_DAY + EXCELJS_EPOCH_DAYS - (date1904 ? DATE1904_OFFSET_DAYS : 0);
    return serialToIso(serial, date1904);
  }
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (Array.isArray(object.richText)) return richTextToPlain(object.richText);
    if (typeof object.error === 'string') return object.error;
    if ('text' in object) return convertPlain(object.text, numFmt, date1904);
    if ('result' in object) return convertPlain(object.result, numFmt, date1904);
    if ('formula' in object || 'sharedFormula' in object) return null;
  }
  return String(value).normalize('NFC');
}

function richTextToPlain(runs: unknown[]): string {
  return runs
    .map((run) =>
      run && typeof run === 'object' ? String((run as { text?: unknown }).text ?? '') : '',
    )
    .join('')
    .normalize('NFC');
}

function convertCachedFormula(
  cached: CachedFormulaValue,
  numFmt: string | undefined,
  date1904: boolean,
): CellValue {
  const text = cached.value;
  if (text === undefined) return null;
  switch (cached.type) {
    case 'b':
      return text.trim() === '1' || text.trim().toLowerCase() === 'true' ? 'TRUE' : 'FALSE';
    case 'e':
    case 'd':
      return text;
    case 'str':
    case 'inlineStr':
      return decodeOoxmlEscapes(text).normalize('NFC');
    default: {
      if (text.trim() === '') return null;
      const number = Number(text);
      if (!Number.isFinite(number)) return text;
      return isDateFormat(numFmt) ? serialToIso(number, date1904) : number;
    }
  }
}

/** OOXML writes characters XML cannot hold as `_xHHHH_` (e.g. `_x0007_` for BEL). */
export function decodeOoxmlEscapes(text: string): string {
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
