import { afterAll, describe, expect, it } from 'vitest';
import { inspectRowSource, openRowSource } from '../../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import { collectGarbage } from '../../helpers/collect-garbage.js';
import { collect, createTempDir } from '../fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

async function failure(promise: Promise<unknown>): Promise<SpreadsheetError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

describe('CSV structure', () => {
  it('reads CRLF with no final newline, and numbers each row by its first line', async () => {
    const source = await openRowSource(temp.file('crlf.csv', 'a,b\r\n1,"two\r\nlines"\r\n\r\n3,4'));
    const rows = await collect(source.rows);
    expect(rows.map((row) => [row.rowIndex, row.line, row.cells])).toEqual([
      [0, 2, { a: '1', b: 'two\r\nlines' }],
      [1, 5, { a: '3', b: '4' }],
    ]);
  });

  it('reads old Mac CR-only line ends', async () => {
    const rows = await collect((await openRowSource(temp.file('cr.csv', 'a,b\r1,2\r3,4\r'))).rows);
    expect(rows.map((row) => row.cells)).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
  });

  it.each([
    [';', 'a;b;c\n1;2,5;3\n'],
    ['\t', 'a\tb\n1\t"x, y"\n'],
    ['|', 'a|b|c\n1|2|3\n'],
    [',', 'only\nvalue\n'],
  ])('sniffs the delimiter %j outside quotes', async (delimiter, text) => {
    const source = await openRowSource(temp.file('delimiter.csv', text));
    expect(source.delimiter).toBe(delimiter);
    await collect(source.rows);
  });

  it('pads short rows with null and reports extra cells on long rows', async () => {
    const source = await openRowSource(temp.file('ragged.csv', 'a,b,c\n1,2\n1,2,3,4\n5,6,7,,\n'));
    const rows = await collect(source.rows);
    expect(rows[0]).toMatchObject({ line: 2, cells: { a: '1', b: '2', c: null }, problems: [] });
    expect(rows[1]?.cells).toEqual({ a: '1', b: '2', c: '3' });
    expect(rows[1]?.problems).toEqual([expect.stringMatching(/Line 3 has 4 cells.*"4"/)]);
    // Trailing empty cells (as spreadsheet exports pad rows) carry no data and are no problem.
    expect(rows[2]?.problems).toEqual([]);
  });

  it('refuses an unterminated quote, naming the line where it opened', async () => {
    const text = 'name,note\nA,fine\n\nB,"starts here\nC,swallowed\nD,swallowed\n';
    const error = await failure(inspectRowSource(temp.file('unterminated.csv', text)));
    expect(error.code).toBe('invalid-spreadsheet');
    expect(error.location.line).toBe(4);
    expect(error.message).toMatch(/Line 4: a quoted cell opens here and is never closed/);
  });

  it('names blank headers after their column and makes duplicates unique, reporting each rename', async () => {
    const source = await openRowSource(
      temp.file('headers.csv', ' price ,,price,Tie\u0302\u0301u,price_2\n1,2,3,4,5\n'),
    );
    expect(source.fields).toEqual(['price', 'column_2', 'price_3', 'Tiếu', 'price_2']);
    expect(source.renamedFields).toEqual([
      { column: 2, original: '', field: 'column_2', reason: 'empty' },
      { column: 3, original: 'price', field: 'price_3', reason: 'duplicate' },
    ]);
    await collect(source.rows);
  });

  it('keeps formula-looking cells as literal text', async () => {
    const text = 'a,b,c,d\n"=HYPERLINK(""http://x"",""y"")",+1,-2,@SUM(A1)\n';
    const [row] = await collect((await openRowSource(temp.file('formulas.csv', text))).rows);
    expect(row?.cells).toEqual({
      a: '=HYPERLINK("http://x","y")',
      b: '+1',
      c: '-2',
      d: '@SUM(A1)',
    });
  });

  it('skips blank lines and rows of empty cells, and counts only data rows', async () => {
    const inspected = await inspectRowSource(temp.file('blank.csv', 'a,b\n\n1,2\n,\n  \n3,4\n'));
    expect(inspected.rowCount).toBe(2);
    expect(inspected.preview.map((row) => row.line)).toEqual([3, 6]);
  });

  it.each([
    ['an empty file', ''],
    ['a header and nothing else', 'a,b,c\r\n'],
    ['a header and blank lines', 'a,b\n\n,\n'],
  ])('refuses %s with no-rows-found', async (_name, text) => {
    const error = await failure(openRowSource(temp.file('zero.csv', text)));
    expect(error.code).toBe('no-rows-found');
  });

  it('refuses rows past the cap with too-many-rows', async () => {
    const error = await failure(
      inspectRowSource(temp.file('cap.csv', 'a\n1\n2\n3\n'), { maxRows: 2 }),
    );
    expect(error.code).toBe('too-many-rows');
  });

  it('streams a 100,000-row CSV with bounded memory', async () => {
    const lines = ['sku,name,price'];
    for (let i = 0; i < 100_000; i += 1) lines.push(`SKU-${i},"Item ${i}, large",${i}.99`);
    const file = temp.file('large.csv', `${lines.join('\n')}\n`);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let count = 0;
    // Every 1,000th row, watched without being kept (a WeakRef would keep it alive a while).
    let watched = 0;
    let collected = 0;
    const registry = new FinalizationRegistry(() => {
      collected += 1;
    });
    const source = await openRowSource(file);
    for await (const row of source.rows) {
      count += 1;
      if (count % 1_000 === 0) {
        registry.register(row.cells, count);
        watched += 1;
      }
      if (count % 10_000 === 0) {
        // What the reader keeps, not the garbage V8 has not collected yet.
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
      if (count === 100_000)
        expect(row.cells).toEqual({
          sku: 'SKU-99999',
          name: 'Item 99999, large',
          price: '99999.99',
        });
    }
    expect(count).toBe(100_000);
    // The file is ~3.5 MB; holding its rows costs over 60 MB of heap.
    expect(peak - before).toBeLessThan(16 * 1024 * 1024);
    // Finalizers run as tasks after the collection that found their rows unreachable.
    for (let round = 0; round < 5 && collected < watched; round += 1) {
      collectGarbage();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // All but the last row, which the loop's variable may still hold.
    expect(collected).toBeGreaterThanOrEqual(watched - 1);
  });
});
