import { openCsvRowSource } from '../csv/csv-row-source.js';
import { detectFileKind, notASpreadsheet } from '../file-kind.js';
import type { RenamedField } from './header-fields.js';
import type {
  OpenedRowSource,
  RowSourceKind,
  RowSourceOptions,
  SheetSummary,
  SourceRow,
} from './row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';

/**
 * The one door to spreadsheet rows: the file's bytes decide whether it is CSV or xlsx, and
 * either way the caller gets header fields and a stream of rows of the same shape.
 */

export type {
  OpenedRowSource,
  RowSourceOptions,
  SourceRow,
  SheetSummary,
} from './row-source-types.js';
export type { RenamedField } from './header-fields.js';

export interface InspectedRowSource {
  kind: RowSourceKind;
  fields: string[];
  renamedFields: RenamedField[];
  /** Data rows (blank rows and the header excluded). */
  rowCount: number;
  /** Rows with a row-level problem (they fail alone in a batch). */
  rowsWithProblems: number;
  sheets?: SheetSummary[];
  sheet?: string;
  encoding?: string;
  delimiter?: string;
  /** The first 20 data rows. */
  preview: SourceRow[];
}

const PREVIEW_ROWS = 20;

export async function openRowSource(
  file: string,
  options: RowSourceOptions = {},
): Promise<OpenedRowSource> {
  const detected = await detectFileKind(file);
  if (detected.kind !== 'csv' && detected.kind !== 'xlsx') throw notASpreadsheet(detected.kind);
  if (options.kind && options.kind !== detected.kind) {
    throw new SpreadsheetError(
      'unsupported-media-type',
      `The file was sent as ${options.kind.toUpperCase()} but its contents are ${detected.kind.toUpperCase()}.`,
    );
  }
  if (detected.kind === 'csv') {
    return openCsvRowSource(file, {
      ...(options.encoding !== undefined ? { encoding: options.encoding } : {}),
      ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}),
    });
  }
  // Loaded by the first workbook: a CSV (a command-line CI run's usual source) needs none of
  // the zip and XML readers behind it.
  const { openXlsxRowSource } = await import('../xlsx/xlsx-row-source.js');
  return openXlsxRowSource(file, {
    ...(options.sheet !== undefined ? { sheet: options.sheet } : {}),
    ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}),
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
  });
}

/** Reads the whole file once: fields, row count, the first rows — and any error, before a job starts. */
export async function inspectRowSource(
  file: string,
  options: RowSourceOptions = {},
): Promise<InspectedRowSource> {
  const source = await openRowSource(file, options);
  const preview: SourceRow[] = [];
  let rowCount = 0;
  let rowsWithProblems = 0;
  try {
    for await (const row of source.rows) {
      rowCount += 1;
      if (row.problems.length > 0) rowsWithProblems += 1;
      if (preview.length < PREVIEW_ROWS) preview.push(row);
    }
  } finally {
    await source.close();
  }
  return {
    kind: source.kind,
    fields: source.fields,
    renamedFields: source.renamedFields,
    rowCount,
    rowsWithProblems,
    ...(source.sheets ? { sheets: source.sheets } : {}),
    ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
    ...(source.encoding !== undefined ? { encoding: source.encoding } : {}),
    ...(source.delimiter !== undefined ? { delimiter: source.delimiter } : {}),
    preview,
  };
}
