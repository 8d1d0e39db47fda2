import type { ArchiveLimits } from './archive-limits.js';
import { DEFAULT_ARCHIVE_LIMITS } from './archive-limits.js';
import { createStreamingWorkbook, createWorksheetReader } from './exceljs-internals.js';
import { createFormulaCacheScanner } from './formula-cache-scanner.js';
import { chooseSheet, identifyPackage, readWorkbookStructure } from './ooxml-package.js';
import type { SheetEntry } from './ooxml-package.js';
import type { CellValue } from './row-source-types.js';
import { SpreadsheetError } from './spreadsheet-error.js';
import { convertCell } from './xlsx-cell-value.js';
import { openZip } from './zip-reader.js';
import type { ZipArchive } from './zip-reader.js';

/**
 * Reads one worksheet of an xlsx, row by row, with exceljs's streaming worksheet reader fed from
 * our own zip reading (see exceljs-internals.ts). Runs inside the parse worker. Rows with no
 * value are skipped; a row's values are indexed by column (0 = A); merged areas stay blank
 * except their top-left cell, as the file stores them.
 */

export interface XlsxSheetRequest {
  file: string;
  sheet?: string | number;
  limits?: ArchiveLimits;
}

export interface RawRow {
  /** The worksheet row number. */
  line: number;
  values: CellValue[];
}

export interface OpenedSheet {
  sheets: SheetEntry[];
  chosen: SheetEntry;
  date1904: boolean;
  rows: AsyncGenerator<RawRow>;
  close(): void;
}

export async function openXlsxSheet(request: XlsxSheetRequest): Promise<OpenedSheet> {
  const zip = await openZip(request.file, request.limits ?? DEFAULT_ARCHIVE_LIMITS);
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
    if (!chosen.part || !zip.has(chosen.part)) {
      throw new SpreadsheetError(
        'no-rows-found',
        `The sheet "${chosen.name}" has no data in the file (its part is missing).`,
        { sheet: chosen.name },
      );
    }
    const workbook = createStreamingWorkbook(structure.date1904);
    if (structure.stylesPart && zip.has(structure.stylesPart)) {
      await guard(chosen, workbook._parseStyles(await zip.openText(structure.stylesPart)));
    }
    if (structure.sharedStringsPart && zip.has(structure.sharedStringsPart)) {
      const strings = await zip.openText(structure.sharedStringsPart);
      await guard(chosen, drain(workbook._parseSharedStrings(strings)));
    }
    const rows = readRows(zip, chosen, workbook, structure.date1904);
    return {
      sheets: structure.sheets,
      chosen,
      date1904: structure.date1904,
      rows,
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function drain(items: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of items) {
    // shared strings are cached on the workbook as they are read
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
  zip: ZipArchive,
  sheet: SheetEntry,
  workbook: ReturnType<typeof createStreamingWorkbook>,
  date1904: boolean,
): AsyncGenerator<RawRow> {
  const scanner = createFormulaCacheScanner();
  const text = await zip.openText(sheet.part as string);
  const iterator = (async function* () {
    for await (const chunk of text as AsyncIterable<string>) {
      scanner.write(chunk); // before exceljs sees the chunk, so cached values are ready for its rows
      yield chunk;
    }
  })();
  try {
    for await (const row of createWorksheetReader(workbook, sheet.index + 1, iterator)) {
      const values: CellValue[] = [];
      let hasValue = false;
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        const value = convertCell(cell.value, cell.numFmt, date1904, scanner.take(cell.address));
        while (values.length < column - 1) values.push(null);
        values[column - 1] = value;
        if (value !== null && !(typeof value === 'string' && value.trim() === '')) hasValue = true;
      });
      if (hasValue) yield { line: row.number, values };
    }
  } catch (error) {
    throw unreadable(sheet, error);
  } finally {
    text.destroy();
  }
}
