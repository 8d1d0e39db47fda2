import { MAX_COLUMNS } from './row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';

/**
 * Inline json-array records (a batch request's `source.records`) as a row source, the third
 * kind beside CSV and xlsx uploads: the fields are every key any record has, in the order they
 * are first seen, and each record is one row. Values stay as JSON gave them (lists stay arrays).
 */

export interface RecordRow {
  rowIndex: number;
  /** Records have no line in a file. */
  line: null;
  cells: Record<string, unknown>;
}

export function openRecordRowSource(records: readonly Record<string, unknown>[]): {
  fields: string[];
  rows: AsyncIterable<RecordRow>;
} {
  const fields = recordFields(records);
  return {
    fields,
    rows: (async function* () {
      for (const [rowIndex, cells] of records.entries()) yield { rowIndex, line: null, cells };
    })(),
  };
}

/**
 * Every key any record has, in first-seen order: the source's columns, as many as a CSV may have.
 * Each record is capped by the JSON body check; together they could name millions of fields,
 * which every later step (bindings, pre-flight, messages listing the fields) would walk.
 */
export function recordFields(records: readonly Record<string, unknown>[]): string[] {
  const fields = new Set<string>();
  for (const [index, record] of records.entries()) {
    for (const key of Object.keys(record)) {
      fields.add(key);
      if (fields.size > MAX_COLUMNS) {
        throw new SpreadsheetError(
          'too-many-columns',
          `The records use more than ${MAX_COLUMNS.toLocaleString('en')} different keys (source.records[${index}] brings one more); a source may have at most ${MAX_COLUMNS.toLocaleString('en')} columns. Leave out the keys no variable uses.`,
        );
      }
    }
  }
  return [...fields];
}
