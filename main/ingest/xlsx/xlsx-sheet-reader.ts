import { SpreadsheetError } from '../spreadsheet-error.js';
import type { SafeZip } from '../zip/safe-zip.js';
import { readDateStyles } from './cell-styles.js';
import { chooseSheet, identifyPackage, readWorkbookStructure } from './ooxml-package.js';
import type { SheetEntry } from './ooxml-package.js';
import { readSharedStrings } from './shared-strings.js';
import { readSheetRows, type RawRow } from './sheet-rows.js';
import type { CellContext } from './xlsx-cell-value.js';
import { openWorkbookZip } from './workbook-zip.js';
import { xmlText } from './xml-part.js';

/**
 * Reads one worksheet of an xlsx, row by row: the package through its relationships, the
 * shared strings and which cell formats are dates, then the sheet itself in one streaming
 * pass. Runs inside the parse worker (xlsx-worker.ts).
 */

export type { RawRow } from './sheet-rows.js';

export interface XlsxSheetRequest {
  file: string;
  sheet?: string | number;
}

export interface OpenedSheet {
  sheets: SheetEntry[];
  chosen: SheetEntry;
  date1904: boolean;
  rows: AsyncGenerator<RawRow>;
  close(): void;
}

export async function openXlsxSheet(request: XlsxSheetRequest): Promise<OpenedSheet> {
  const zip = await openWorkbookZip(request.file);
  try {
    const found = await identifyPackage(zip);
    if (found.kind === 'xlsb') {
      throw new SpreadsheetError(
        'unsupported-media-type',
        'This is an Excel Binary Workbook (.xlsb). Save it as .xlsx (Excel Workbook) or CSV and upload that.',
      );
    }
    if (found.kind !== 'xlsx' || !found.workbookPart) {
      throw new SpreadsheetError(
        'invalid-spreadsheet',
        'This is a zip archive but not an Excel workbook (.xlsx). Upload the .xlsx or a CSV file itself.',
      );
    }
    const structure = await readWorkbookStructure(zip, found.workbookPart);
    const chosen = chooseSheet(structure.sheets, request.sheet);
    const sheetPart = chosen.part && zip.findIgnoringCase(chosen.part);
    if (!sheetPart) {
      throw new SpreadsheetError(
        'no-rows-found',
        `The sheet "${chosen.name}" has no data in the file (its part is missing).`,
        { sheet: chosen.name },
      );
    }
    const present = (part: string | undefined) => (part ? zip.findIgnoringCase(part) : undefined);
    const stylesPart = present(structure.stylesPart);
    const stringsPart = present(structure.sharedStringsPart);
    const dateStyles = stylesPart ? await guard(chosen, readDateStyles(zip, stylesPart)) : [];
    const sharedStrings = stringsPart
      ? await guard(chosen, readSharedStrings(zip, stringsPart))
      : [];
    const context: CellContext = { sharedStrings, dateStyles, date1904: structure.date1904 };
    return {
      sheets: structure.sheets,
      chosen,
      date1904: structure.date1904,
      rows: readRows(zip, chosen, sheetPart, context),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function guard<T>(sheet: SheetEntry, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw unreadable(sheet, error);
  }
}

function unreadable(sheet: SheetEntry, error: unknown): unknown {
  if (error instanceof SpreadsheetError) return error;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new SpreadsheetError(
    'invalid-spreadsheet',
    `The workbook cannot be read (sheet "${sheet.name}": ${reason}). Open it in the spreadsheet application and save it again.`,
    { sheet: sheet.name },
  );
}

async function* readRows(
  zip: SafeZip,
  sheet: SheetEntry,
  part: string,
  context: CellContext,
): AsyncGenerator<RawRow> {
  try {
    for await (const rows of readSheetRows(xmlText(await zip.openStream(part)), context)) {
      yield* rows;
    }
  } catch (error) {
    throw unreadable(sheet, error);
  }
}
