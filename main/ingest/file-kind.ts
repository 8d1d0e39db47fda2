import { readHead } from '../files/read-head.js';
import { SpreadsheetError } from './spreadsheet-error.js';
import { identifyPackage, PACKAGE_PARTS } from './xlsx/ooxml-package.js';
import { workbookRefusal } from './xlsx/workbook-zip.js';
import { SafeZip, type ZipProfile } from './zip/safe-zip.js';
import { MAX_LISTED_ENTRIES, ZIP_LIMITS } from './zip/zip-limits.js';
import { describeLimit, isLimitRefusal } from './zip/zip-refusal.js';

/**
 * What an uploaded file really is, decided by its bytes (HOSTILE-INPUTS #10), never by its name:
 * a PNG renamed `.csv` or a legacy `.xls` renamed `.xlsx` must be refused, not half-parsed.
 */

export type FileKind =
  | 'csv'
  | 'xlsx'
  | 'xls'
  | 'xlsb'
  | 'zip'
  | 'png'
  | 'jpeg'
  | 'webp'
  | 'gif'
  | 'svg'
  | 'xml'
  | 'pdf'
  | 'empty'
  | 'binary';

export interface DetectedFile {
  kind: FileKind;
  /** The OOXML workbook part, for xlsx. */
  workbookPart?: string;
}

const HEAD_BYTES = 8192;
/**
 * How far a document that opens with an XML prolog (declaration, comments, a DOCTYPE) is read to
 * find its root element when the prolog runs past HEAD_BYTES.
 */
const MARKUP_HEAD_BYTES = 1024 * 1024;

const startsWith = (head: Buffer, ...bytes: number[]): boolean =>
  head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);

/** Classifies the first bytes of a file; zips need a look inside (see `detectFileKind`). */
export function sniffHead(head: Buffer): FileKind {
  return sniff(head).kind;
}

/** The kind, and whether a markup prolog ran past the end of `head` before the root element. */
function sniff(head: Buffer): { kind: FileKind; prologCut?: boolean } {
  const decoded = textOf(head);
  const markup = decoded === undefined ? undefined : sniffMarkup(decoded.text);
  if (markup === 'cut') return { kind: 'xml', prologCut: true };
  // librsvg reads SVG as UTF-8 only, and the SVG check reads it as UTF-8: a UTF-16 SVG is markup
  // that cannot be used as an image, so it is not sent on as one.
  if (markup !== undefined) return { kind: decoded?.utf16 ? 'xml' : markup };
  return { kind: sniffBytes(head) };
}

function sniffBytes(head: Buffer): FileKind {
  if (head.length === 0) return 'empty';
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04) || startsWith(head, 0x50, 0x4b, 0x05, 0x06)) {
    return 'zip';
  }
  // OLE2 compound file: legacy .xls (BIFF), and also password-protected .xlsx.
  if (startsWith(head, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'xls';
  if (startsWith(head, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (startsWith(head, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (startsWith(head, 0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (startsWith(head, 0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf';
  if (
    startsWith(head, 0x52, 0x49, 0x46, 0x46) &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  if (
    startsWith(head, 0xef, 0xbb, 0xbf) ||
    startsWith(head, 0xff, 0xfe) ||
    startsWith(head, 0xfe, 0xff)
  ) {
    return 'csv';
  }
  if (looksLikeUtf16WithoutBom(head)) return 'csv';
  if (looksBinary(head)) return 'binary';
  return 'csv';
}

/**
 * The head as text when it may be markup: after a UTF-8 or UTF-16 BOM, or UTF-16 without one,
 * decoded as such; otherwise as latin1 (the markup that decides is ASCII). Undefined when it
 * starts with neither `<` nor whitespace (binary signatures, most CSV).
 */
function textOf(head: Buffer): { text: string; utf16: boolean } | undefined {
  if (startsWith(head, 0xef, 0xbb, 0xbf))
    return { text: head.subarray(3).toString('latin1'), utf16: false };
  if (startsWith(head, 0xff, 0xfe))
    return { text: head.subarray(2).toString('utf16le'), utf16: true };
  if (startsWith(head, 0xfe, 0xff)) return { text: utf16beText(head.subarray(2)), utf16: true };
  const utf16 = looksLikeUtf16WithoutBom(head);
  if (utf16 === 'utf-16le') return { text: head.toString('utf16le'), utf16: true };
  if (utf16 === 'utf-16be') return { text: utf16beText(head), utf16: true };
  const first = head[0] ?? 0;
  return first === 0x3c || isXmlSpace(first)
    ? { text: head.toString('latin1'), utf16: false }
    : undefined;
}

function utf16beText(bytes: Buffer): string {
  const even = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return even.swap16().toString('utf16le');
}

const isXmlSpace = (code: number): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * SVG or other XML by the document's root element, found after what may precede it: whitespace,
 * the XML declaration, comments, processing instructions and a DOCTYPE (with its internal
 * subset). An SVG that opens with a comment (as editors write them) used to be taken for a CSV.
 * Text that starts straight with some other element (`<b>Name</b>,Price`) is left to be a CSV;
 * `cut` when the prolog does not end within `text`; undefined when this is not markup.
 */
function sniffMarkup(text: string): 'svg' | 'xml' | 'cut' | undefined {
  let i = skipSpace(text, 0);
  let prolog = false;
  for (;;) {
    if (i >= text.length) return prolog ? 'cut' : undefined;
    if (text.charCodeAt(i) !== 0x3c) return prolog ? 'xml' : undefined;
    let end: number;
    if (text.startsWith('<?', i)) end = endOf(text, '?>', i + 2);
    else if (text.startsWith('<!--', i)) end = endOf(text, '-->', i + 4);
    else if (text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE') end = endOfDoctype(text, i + 9);
    else {
      const name = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 256))?.[1];
      if (name === undefined) return prolog ? 'xml' : undefined;
      const local = name.slice(name.lastIndexOf(':') + 1).toLowerCase();
      if (local === 'svg') return 'svg';
      return prolog ? 'xml' : undefined;
    }
    if (end === -1) return 'cut';
    prolog = true;
    i = skipSpace(text, end);
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isXmlSpace(text.charCodeAt(i))) i += 1;
  return i;
}

/** The index just past `close`, or -1 when it does not occur. */
function endOf(text: string, close: string, from: number): number {
  const at = text.indexOf(close, from);
  return at === -1 ? -1 : at + close.length;
}

/** Past the `>` that ends a DOCTYPE, skipping quoted identifiers and the `[…]` subset. */
function endOfDoctype(text: string, from: number): number {
  let inSubset = false;
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (c === '[') inSubset = true;
    else if (c === ']') inSubset = false;
    else if (c === '>' && !inSubset) return i + 1;
  }
  return -1;
}

/** Control bytes other than tab, CR, LF, FF and SUB do not occur in text exports. */
function looksBinary(head: Buffer): boolean {
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (
      byte < 0x20 &&
      byte !== 0x09 &&
      byte !== 0x0a &&
      byte !== 0x0d &&
      byte !== 0x0c &&
      byte !== 0x1a
    ) {
      controls += 1;
    }
  }
  return controls > head.length / 100;
}

/** ASCII text saved as UTF-16 with no BOM: every other byte is zero. */
export function looksLikeUtf16WithoutBom(head: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(Math.min(head.length, 4096) / 2);
  if (pairs < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs; i += 1) {
    if (head[2 * i] === 0) evenZero += 1;
    if (head[2 * i + 1] === 0) oddZero += 1;
  }
  if (oddZero > pairs * 0.9 && evenZero === 0) return 'utf-16le';
  if (evenZero > pairs * 0.9 && oddZero === 0) return 'utf-16be';
  return undefined;
}

/**
 * How a zip of unknown purpose is looked into: listed up to the most entries any kind of zip may
 * hold, and only the two small parts that say whether it is a workbook are read. Its other
 * limits are those of what it turns out to be, checked when it is opened as that.
 */
const UNKNOWN_ZIP: ZipProfile = {
  limits: { ...ZIP_LIMITS.spreadsheet, maxEntries: MAX_LISTED_ENTRIES },
  backslashes: 'separator',
  reads: (name) => PACKAGE_PARTS.has(name.toLowerCase()),
  wording: (refusal) =>
    isLimitRefusal(refusal)
      ? new SpreadsheetError(
          'archive-limits-exceeded',
          `The zip was refused because it would unpack to an unsafe size: ${describeLimit(refusal)}. ` +
            'Split it into smaller files.',
        )
      : workbookRefusal(refusal),
};

export async function detectFileKind(file: string): Promise<DetectedFile> {
  const head = await readHead(file, HEAD_BYTES);
  const first = sniff(head);
  const kind =
    first.prologCut && head.length === HEAD_BYTES
      ? sniff(await readHead(file, MARKUP_HEAD_BYTES)).kind
      : first.kind;
  if (kind !== 'zip') return { kind };
  let zip;
  try {
    zip = await SafeZip.open(file, UNKNOWN_ZIP);
  } catch (error) {
    // A damaged zip is still a zip; refusing it is the caller's decision.
    if (error instanceof SpreadsheetError && error.code === 'archive-limits-exceeded') throw error;
    return { kind: 'zip' };
  }
  try {
    const found = await identifyPackage(zip);
    if (found.kind === 'xlsx') return { kind: 'xlsx', workbookPart: found.workbookPart };
    return { kind: found.kind === 'xlsb' ? 'xlsb' : 'zip' };
  } catch (error) {
    if (error instanceof SpreadsheetError && error.code === 'archive-limits-exceeded') throw error;
    return { kind: 'zip' };
  } finally {
    zip.close();
  }
}

/** The refusal for anything that is not a CSV or xlsx workbook. */
export function notASpreadsheet(kind: FileKind): SpreadsheetError {
  switch (kind) {
    case 'empty':
      return new SpreadsheetError('no-rows-found', 'The file is empty.');
    case 'xls':
      return new SpreadsheetError(
        'unsupported-media-type',
        'This is a legacy Excel 97–2003 (.xls) file or a password-protected workbook. Save it as .xlsx (Excel Workbook) or CSV and upload that.',
      );
    case 'xlsb':
      return new SpreadsheetError(
        'unsupported-media-type',
        'This is an Excel Binary Workbook (.xlsb). Save it as .xlsx (Excel Workbook) or CSV and upload that.',
      );
    case 'xml':
      return new SpreadsheetError(
        'unsupported-media-type',
        'This file is an XML document, not a spreadsheet. Upload a CSV or .xlsx file.',
      );
    case 'zip':
      return new SpreadsheetError(
        'invalid-spreadsheet',
        'This is a zip archive but not an Excel workbook (.xlsx). Upload the .xlsx or a CSV file itself.',
      );
    default:
      return new SpreadsheetError(
        'unsupported-media-type',
        `This file is not a spreadsheet (it looks like ${kind === 'binary' ? 'binary data' : `a ${kind.toUpperCase()} file`}). Upload a CSV or .xlsx file.`,
      );
  }
}
