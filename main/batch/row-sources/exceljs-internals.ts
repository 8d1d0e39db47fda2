import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * The pieces of exceljs 4.4's streaming reader that we drive ourselves, typed narrowly.
 * `WorkbookReader.parse()` finds parts by fixed paths (`xl/workbook.xml`, `xl/worksheets/sheetN.xml`)
 * in local-header order and decodes each chunk separately (splitting multi-byte characters at
 * chunk edges). So we open the zip through its central directory, resolve the parts through the
 * relationships, and hand exceljs the styles, shared strings and the one chosen sheet as
 * already-decoded text. These are internal methods: exceljs has had no release since 4.4.0;
 * re-check them on any upgrade (the xlsx tests cover every one).
 */

export interface ExcelCell {
  readonly value: unknown;
  readonly numFmt?: string;
  readonly address: string;
}

export interface ExcelRow {
  readonly number: number;
  eachCell(
    options: { includeEmpty: boolean },
    callback: (cell: ExcelCell, column: number) => void,
  ): void;
}

export interface StreamingWorkbook {
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  sharedStrings?: unknown[];
  properties?: { model: { date1904: boolean } };
  options: Record<string, string>;
}

type WorksheetReaderClass = new (init: {
  workbook: StreamingWorkbook;
  id: number;
  iterator: AsyncIterable<string>;
  options: Record<string, string>;
}) => AsyncIterable<ExcelRow>;

const require = createRequire(import.meta.url);

export function createStreamingWorkbook(date1904: boolean): StreamingWorkbook {
  const Reader = ExcelJS.stream.xlsx.WorkbookReader as unknown as new (
    input: unknown,
    options: Record<string, string>,
  ) => StreamingWorkbook;
  const workbook = new Reader(null, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Hyperlink elements come after <sheetData>, so 'cache' cannot attach them to cells in a
    // stream; the cell already holds the link's display text, which is what we want.
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  workbook.sharedStrings = [];
  // The worksheet reader reads date1904 from here when it turns serials into dates.
  workbook.properties = { model: { date1904 } };
  return workbook;
}

export function createWorksheetReader(
  workbook: StreamingWorkbook,
  id: number,
  iterator: AsyncIterable<string>,
): AsyncIterable<ExcelRow> {
  const WorksheetReader =
    require('exceljs/lib/stream/xlsx/worksheet-reader.js') as WorksheetReaderClass;
  return new WorksheetReader({ workbook, id, iterator, options: workbook.options });
}
