import type { OpenedRowSource, SourceRow } from './row-source-types.js';

/**
 * The data rows of an opened spreadsheet, once it is known there is at least one (`noRows` is
 * thrown when there is none). The stream releases the file, and the xlsx worker, when it is read
 * to the end or abandoned; `close` releases them when the rows are never read.
 */
export async function dataRows(
  rows: AsyncGenerator<SourceRow>,
  release: () => Promise<void>,
  noRows: () => Error,
): Promise<Pick<OpenedRowSource, 'rows' | 'close'>> {
  const first = await rows.next();
  if (first.done) throw noRows();
  return {
    rows: (async function* () {
      try {
        yield first.value;
        yield* rows;
      } finally {
        await release();
      }
    })(),
    close: release,
  };
}
