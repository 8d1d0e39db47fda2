import type { Problem } from '../../shared/errors';
import { isApiError } from '../api/http';
import type { MessageKey, Translate } from './i18n';

/** Where a problem sits, so its text can name the field and the spreadsheet cell. */
export interface ProblemPlace {
  /** The label a variable is shown with, by name (null when the template has no such one). */
  label: (name: string) => string | null;
  /** The spreadsheet address of a variable's cell in this row ("C5"), when a column feeds it. */
  cell?: (name: string) => string | null;
  /** The row's line in the spreadsheet, when known. */
  line?: number | null;
  /** The market a variable's numbers are written for ("vi-VN"), for examples written its way. */
  locale?: (name: string) => string | null;
}

/** The variable a path like `values.items[2]` is about. */
export function problemVariable(path: string | undefined): string | null {
  if (!path?.startsWith('values.')) return null;
  return path.slice(7).split(/[.[]/)[0] ?? null;
}

/** One of the server's problems in the UI's language: field (and cell), what is wrong, what to do. */
export function problemText(t: Translate, problem: Problem, place: ProblemPlace): string {
  const subject = problemSubject(t, problem.path, place);
  const { key, vars } = readMessage(problem.message);
  if (key === 'problem.notNumber') vars.example = numberExampleAt(problem.path, place);
  return t(key, { subject, ...vars });
}

/** 1250000 as a market writes it (1.250.000 in vi-VN); plain digits when the market is unknown. */
export function numberExample(locale: string | null): string {
  return locale ? new Intl.NumberFormat(locale).format(1250000) : '1250000';
}

function numberExampleAt(path: string, place: ProblemPlace): string {
  const name = problemVariable(path);
  return numberExample(name ? (place.locale?.(name) ?? null) : null);
}

function problemSubject(t: Translate, path: string, place: ProblemPlace): string {
  const name = problemVariable(path);
  if (name) {
    const label = place.label(name) ?? name;
    const cell = place.cell?.(name) ?? null;
    return cell ? t('problem.subject.cell', { label, cell }) : label;
  }
  if (place.line !== undefined && place.line !== null)
    return t('problem.subject.line', { line: place.line });
  return t('problem.subject.values');
}

/** The server's English message, recognised: the one place that knows its wording. */
function readMessage(message: string): { key: MessageKey; vars: Record<string, string> } {
  const match = (re: RegExp) => re.exec(message);
  let m: RegExpExecArray | null;
  if (match(/^a value is required/)) return { key: 'problem.required', vars: {} };
  if ((m = match(/^"(.*)" is not a number$/s)))
    return { key: 'problem.notNumber', vars: { text: m[1]! } };
  if (match(/^expected a number/)) return { key: 'problem.notNumber', vars: { text: '' } };
  if ((m = match(/^(\S+) is below the minimum (\S+)/)))
    return { key: 'problem.min', vars: { value: m[1]!, min: m[2]! } };
  if ((m = match(/^(\S+) is above the maximum (\S+)/)))
    return { key: 'problem.max', vars: { value: m[1]!, max: m[2]! } };
  if ((m = match(/^"(.*)" is not a date/s))) return { key: 'problem.date', vars: { text: m[1]! } };
  if ((m = match(/^(\S+) is not a calendar date/)))
    return { key: 'problem.date', vars: { text: m[1]! } };
  if (match(/^expected a date/)) return { key: 'problem.date', vars: { text: '' } };
  if ((m = match(/^"(.*)" is not a colour/s)))
    return { key: 'problem.colour', vars: { text: m[1]! } };
  if (match(/^expected a colour/)) return { key: 'problem.colour', vars: { text: '' } };
  if ((m = match(/^"(.*)" is not one of (.*)$/s)))
    return { key: 'problem.enum', vars: { text: m[1]!, options: m[2]! } };
  if ((m = match(/^expected one of (.*)$/s)))
    return { key: 'problem.enum', vars: { text: '', options: m[1]! } };
  if ((m = match(/^has (\d+) items; at most (\d+)/)))
    return { key: 'problem.maxItems', vars: { count: m[1]!, max: m[2]! } };
  if ((m = match(/^is longer than ([\d,]+) characters/)))
    return { key: 'problem.tooLong', vars: { max: m[1]! } };
  if (match(/^the text values add up to/)) return { key: 'problem.totalTooLong', vars: {} };
  if (match(/^the text is too long for its space/)) return { key: 'problem.truncated', vars: {} };
  if (match(/is empty in the brand profile/)) return { key: 'problem.brandEmpty', vars: {} };
  if ((m = match(/^no bundled font can draw (.*)$/s)))
    return { key: 'problem.glyphs', vars: { chars: m[1]! } };
  if (match(/^expected text/)) return { key: 'problem.notText', vars: {} };
  // A relative path looked up in the batch's images folder (or its unpacked images zip).
  if ((m = match(/^"(.*)" is not in the images folder/s)))
    return { key: 'problem.imageMissing', vars: { file: m[1]!.split(/[\\/]/).pop() ?? m[1]! } };
  if ((m = match(/^"(.*)" (points|links to a file) outside the images folder/s)))
    return { key: 'problem.imageOutside', vars: { file: m[1]! } };
  if ((m = match(/no file at "(.*)"/s)))
    return { key: 'problem.imageMissing', vars: { file: m[1]!.split(/[\\/]/).pop() ?? m[1]! } };
  if (match(/there is no image upload/)) return { key: 'problem.image', vars: {} };
  if (match(/^the image cannot be read/)) return { key: 'problem.imageUnreadable', vars: {} };
  if (match(/megapixel limit|the image is over/)) return { key: 'problem.imageTooLarge', vars: {} };
  if (
    match(
      /^expected an image|data: URI|not an image|is a folder|is empty\.$|not a regular file|remote (URLs|images)|data folder|network or device path/,
    )
  )
    return { key: 'problem.image', vars: {} };
  if (match(/^the template has no variable/)) return { key: 'problem.unknownVariable', vars: {} };
  if ((m = match(/^the .+? "(.+?)"(?: on page \d+)? does not scan/s)))
    return { key: 'problem.codeUnreadable', vars: { layer: m[1]! } };
  if ((m = match(/^the .+? "(.+?)"(?: on page \d+)? scans as "(.*)", not as its value/s)))
    return { key: 'problem.codeMisread', vars: { layer: m[1]!, text: m[2]! } };
  return { key: 'problem.other', vars: { message } };
}

/**
 * A manifest row's error as the server stores it (`values.a: …; values.b: …`, or
 * `line 7: …` for a row the spreadsheet reader refused), back into problems.
 */
export function rowErrorProblems(error: string): Problem[] {
  const line = /^line (\d+|\?): (.*)$/s.exec(error);
  if (line) return [{ path: 'row', message: line[2]! }];
  const parts = error.split(/; (?=(?:values(?:\.[A-Za-z0-9_]+(?:\[\d+\])?)?|row|layers\.\S+): )/);
  return parts.map((part) => {
    const m = /^(values(?:\.[A-Za-z0-9_]+(?:\[\d+\])?)?|row|layers\.\S+): (.*)$/s.exec(part);
    return m ? { path: m[1]!, message: m[2]! } : { path: 'row', message: part };
  });
}

/** An error's headline in the UI's language: a known code's sentence, else the server's own. */
export function errorHeadline(t: Translate, error: unknown): string | null {
  if (!isApiError(error)) return null;
  const key = `apiError.${error.code}` as MessageKey;
  const text = t(key);
  return text === undefined || text === key ? null : text;
}
