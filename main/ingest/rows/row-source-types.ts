import type { RenamedField } from './header-fields.js';

/** A cell as the batch sees it: text, a number, or null for a cell that is not there. */
export type CellValue = string | number | null;

export interface SourceRow {
  /** 0-based index among data rows (the header is not a data row). */
  rowIndex: number;
  /** Where the row starts: the CSV line, or the worksheet row number. */
  line: number;
  /**
   * By field name. A record without a prototype (`createRowCells`): a column named `__proto__`
   * or `constructor` is a cell like any other, and reading an absent one gives undefined.
   */
  cells: Record<string, CellValue>;
  /** Row-level problems (e.g. cells beyond the header that were dropped); empty when clean. */
  problems: string[];
}

export interface SheetSummary {
  name: string;
  /** 0-based position in tab order. */
  index: number;
  hidden: boolean;
}

export type RowSourceKind = 'csv' | 'xlsx';

export interface RowSourceOptions {
  /** Refuse the file unless it is this kind (detected kinds are never overridden). */
  kind?: RowSourceKind;
  /** xlsx: a sheet name or 0-based tab index; default the first visible sheet. */
  sheet?: string | number;
  /** csv: force an encoding instead of detecting it. */
  encoding?: string;
  /** More data rows than this → `too-many-rows`. Default 1,000,000. */
  maxRows?: number;
  /** xlsx: wall-clock budget for the parse worker. Default 30 s. */
  deadlineMs?: number;
}

export interface OpenedRowSource {
  kind: RowSourceKind;
  fields: string[];
  renamedFields: RenamedField[];
  sheets?: SheetSummary[];
  sheet?: string;
  encoding?: string;
  delimiter?: string;
  /** Data rows, streamed; iterate once. Breaking out of the loop releases the file. */
  rows: AsyncIterable<SourceRow>;
  /** Releases the file (and the xlsx worker) when the rows are not read to the end. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_ROWS = 1_000_000;

/**
 * Columns a source may have (a CSV row's cells, the different keys of json-array records): a
 * template has at most 100 variables, and every column costs a key in every row kept in memory
 * and in the database.
 */
export const MAX_COLUMNS = 1_000;
/** Characters one CSV cell may hold (about 1 MB): room for a `data:` URI of a photo. */
export const MAX_CELL_CHARS = 1_000_000;
export const DEFAULT_DEADLINE_MS = 30_000;

/**
 * A row's cells by field name, without a prototype: on a plain object, `cells['__proto__'] = v`
 * sets the prototype (or, for text, does nothing) instead of storing the cell, so a column of
 * that name lost its values.
 */
export function createRowCells(
  fields: readonly string[],
  valueAt: (index: number) => CellValue,
): Record<string, CellValue> {
  const cells = Object.create(null) as Record<string, CellValue>;
  fields.forEach((field, index) => {
    cells[field] = valueAt(index);
  });
  return cells;
}
