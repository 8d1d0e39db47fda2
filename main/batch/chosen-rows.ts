import { Errors, type Problem } from '../../shared/errors.js';

/**
 * A batch of some rows of an upload (`source.rows`): the indexes must be sorted, each once and
 * inside the sheet, so the batch's rows keep the spreadsheet's own row numbers.
 */
export function checkChosenRows(rows: readonly number[], rowCount: number): void {
  const problems: Problem[] = [];
  for (let i = 1; i < rows.length; i += 1) {
    if (rows[i]! <= rows[i - 1]!) {
      problems.push({
        path: `source.rows[${i}]`,
        message:
          rows[i] === rows[i - 1]
            ? `row ${rows[i]} is named twice: name each row once`
            : `rows must be sorted: ${rows[i]} comes after ${rows[i - 1]}`,
      });
      break;
    }
  }
  const outside = rows.findIndex((row) => row >= rowCount);
  if (outside >= 0) {
    problems.push({
      path: `source.rows[${outside}]`,
      message: `the sheet has ${rowCount} data rows (indexes 0–${Math.max(0, rowCount - 1)}); row ${rows[outside]} is not in it`,
    });
  }
  if (problems.length > 0) throw Errors.validation(problems);
}

/** Only the chosen rows of a source, with their own row indexes; every row when `rows` is null. */
export async function* onlyChosenRows<Row extends { rowIndex: number }>(
  source: AsyncIterable<Row>,
  rows: readonly number[] | null,
): AsyncIterable<Row> {
  if (!rows) {
    yield* source;
    return;
  }
  const chosen = new Set(rows);
  const last = rows.at(-1) ?? -1;
  for await (const row of source) {
    if (row.rowIndex > last) return;
    if (chosen.has(row.rowIndex)) yield row;
  }
}
