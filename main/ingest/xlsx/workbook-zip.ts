import { SpreadsheetError } from '../spreadsheet-error.js';
import { SafeZip, type ZipProfile } from '../zip/safe-zip.js';
import { ZIP_LIMITS } from '../zip/zip-limits.js';
import { describeLimit, isLimitRefusal, type ZipRefusal } from '../zip/zip-refusal.js';

/**
 * An uploaded workbook as a zip: the spreadsheet limits, and refusals worded for a person with
 * a spreadsheet. Backslashes are taken as folder separators: some Windows tools write them, and
 * a workbook's parts are only ever read, never unpacked to disk.
 */

export function workbookRefusal(refusal: ZipRefusal): SpreadsheetError {
  if (isLimitRefusal(refusal)) {
    return new SpreadsheetError(
      'archive-limits-exceeded',
      `The workbook was refused because it would inflate to an unsafe size: ${describeLimit(refusal)}. ` +
        'Re-save it from the spreadsheet application, or split the data into smaller files.',
    );
  }
  if (refusal.reason === 'encrypted') {
    return new SpreadsheetError(
      'invalid-spreadsheet',
      'The workbook is password-protected. Remove the password in the spreadsheet application and upload it again.',
    );
  }
  return new SpreadsheetError(
    'invalid-spreadsheet',
    `This is not a readable .xlsx file (the zip archive is damaged: ${damage(refusal)}). ` +
      'Open it in the spreadsheet application and save it again as .xlsx.',
  );
}

function damage(refusal: Exclude<ZipRefusal, { reason: 'encrypted' }>): string {
  switch (refusal.reason) {
    case 'damaged':
      return refusal.detail;
    case 'unsafe-name':
      return refusal.problem === 'reserved'
        ? `the entry name "${refusal.name}" is not allowed`
        : `${refusal.problem}: ${refusal.name}`;
    case 'symlink':
      return `"${refusal.name}" is a symbolic link`;
    case 'duplicate':
      return `"${refusal.name}" appears twice`;
    case 'compression-method':
      return `"${refusal.name}" uses compression method ${refusal.method}`;
    case 'missing':
      return `missing part ${refusal.name}`;
    case 'part-too-large':
      return `${refusal.name} is larger than ${refusal.limit} bytes`;
    default:
      return refusal.reason;
  }
}

export const WORKBOOK_ZIP: ZipProfile = {
  limits: ZIP_LIMITS.spreadsheet,
  backslashes: 'separator',
  wording: workbookRefusal,
};

export function openWorkbookZip(file: string): Promise<SafeZip> {
  return SafeZip.open(file, WORKBOOK_ZIP);
}
