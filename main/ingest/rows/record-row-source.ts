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
  const fields = [...new Set(records.flatMap((record) => Object.keys(record)))];
  return {
    fields,
    rows: (async function* () {
      for (const [rowIndex, cells] of records.entries()) yield { rowIndex, line: null, cells };
    })(),
  };
}
