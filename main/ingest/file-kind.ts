import { open } from 'node:fs/promises';
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
  | 'pdf'
  | 'empty'
  | 'binary';

export interface DetectedFile {
  kind: FileKind;
  /** The OOXML workbook part, for xlsx. */
  workbookPart?: string;
}

const HEAD_BYTES = 8192;

const startsWith = (head: Buffer, ...bytes: number[]): boolean =>
  head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);

/** Classifies the first bytes of a file; zips need a look inside (see `detectFileKind`). */
export function sniffHead(head: Buffer): FileKind {
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
  const text = head.toString('latin1').trimStart().slice(0, 1024).toLowerCase();
  if (
    text.startsWith('<svg') ||
    (text.startsWith('<?xml') && head.toString('latin1').includes('<svg'))
  ) {
    return 'svg';
  }
  return 'csv';
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

export async function readHead(file: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
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
  const kind = sniffHead(await readHead(file));
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
