import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { inspectRowSource, openRowSource } from '../../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import type { RawRow } from '../../../main/ingest/xlsx/xlsx-sheet-reader.js';
import { openXlsxSheet } from '../../../main/ingest/xlsx/xlsx-sheet-reader.js';
import { collect, corpus } from '../fixtures.js';

/** Rows of one sheet in-process (no worker), numbered like the ground-truth CSV lines. */
async function sheetRows(book: string, sheet: string | number): Promise<RawRow[]> {
  const opened = await openXlsxSheet({ file: corpus('xlsx', book), sheet });
  try {
    const rows: RawRow[] = [];
    for await (const row of opened.rows) rows.push(row);
    return rows;
  } finally {
    opened.close();
  }
}

/** Excel 2016's CSV export of a sheet: Windows-1252, one array per line. */
function groundTruth(name: string): string[][] {
  const text = iconv.decode(fs.readFileSync(corpus('xlsx/csv', name)), 'windows-1252');
  return parse(text, { relax_column_count: true }) as string[][];
}

function sheetNames(book: string): string[] {
  return fs
    .readFileSync(corpus('xlsx/csv', `${book}.sheetnames`), 'utf8')
    .split('\n')
    .filter(Boolean);
}

const ISO = /^(\d{4}-\d\d-\d\d)?T?(\d\d:\d\d:\d\d)?$/;

describe('xlsx corpus', () => {
  it('reads dates in 1900.xlsx as Excel shows them, phantom leap day corrected', async () => {
    const rows = await sheetRows('1900.xlsx', 0);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      // B is the date cell, C its cached TEXT(B,"YYYY-MM-DD").
      expect(row.values[1]).toBe(row.values[2]);
    }
    expect(rows.map((row) => row.values[1])).toEqual([
      '1900-01-01',
      '1900-01-11',
      '1900-04-20',
      '1903-01-15',
      '1930-06-02',
    ]);
  });

  it('reads dates in 1904.xlsx with the 1904 system', async () => {
    const rows = await sheetRows('1904.xlsx', 0);
    for (const row of rows) expect(row.values[1]).toBe(row.values[2]);
    expect(rows[0]?.values[1]).toBe('1904-01-02');
  });

  it('lists formula_stress_test sheets in tab order and matches Excel’s cached values', async () => {
    const names = sheetNames('formula_stress_test.xlsx');
    const inspected = await inspectRowSource(corpus('xlsx/formula_stress_test.xlsx'));
    expect(inspected.sheets?.map((sheet) => sheet.name)).toEqual(names);
    expect(inspected.sheet).toBe('Database');

    let compared = 0;
    const mismatches: string[] = [];
    for (const [index, name] of names.entries()) {
      const truth = groundTruth(`formula_stress_test.xlsx.${index}.csv`);
      const rows = await sheetRows('formula_stress_test.xlsx', name);
      // Same non-empty rows as Excel's export.
      const truthLines = truth.flatMap((cells, line) =>
        cells.some((cell) => cell !== '') ? [line + 1] : [],
      );
      expect(
        rows.map((row) => row.line),
        name,
      ).toEqual(truthLines);
      for (const row of rows) {
        row.values.forEach((value, column) => {
          const expected = truth[row.line - 1]?.[column] ?? '';
          if (expected !== '') expect(value, `${name}!${row.line}:${column}`).not.toBeNull();
          // Text, booleans and errors must be Excel's; numbers and dates are raw, not formatted.
          if (typeof value === 'string' && !ISO.test(value)) {
            compared += 1;
            if (value !== expected)
              mismatches.push(
                `${name}!${row.line}:${column} ${JSON.stringify(value)}≠${JSON.stringify(expected)}`,
              );
          }
        });
      }
    }
    expect(compared).toBeGreaterThan(600);
    // INFO("release") and CHAR() (control characters) differ on the machine that exported the CSV.
    expect(mismatches).toEqual([
      'Information!3:1 "14.3"≠"15.20"',
      expect.stringMatching(/^Text!20:1 /),
      expect.stringMatching(/^Text!21:2 /),
    ]);
  });

  it('keeps cached formula results that look empty: FALSE, 0 and #NAME?', async () => {
    const logical = await sheetRows('formula_stress_test.xlsx', 'Logical');
    expect(logical.find((row) => row.line === 2)?.values).toEqual(['FALSE', 'FALSE']);
    const math = await sheetRows('formula_stress_test.xlsx', 'Math');
    expect(math.find((row) => row.line === 22)?.values[1]).toBe(0);
    const text = await sheetRows('formula_stress_test.xlsx', 'Text');
    expect(text.find((row) => row.line === 48)?.values[1]).toBe('#NAME?');
  });

  it('flattens rich text to the plain text Excel exports', async () => {
    const rows = await sheetRows('rich_text_stress.xlsx', 0);
    const truth = groundTruth('rich_text_stress.xlsx.0.csv');
    for (const row of rows)
      expect(row.values).toEqual(truth[row.line - 1]?.slice(0, row.values.length));
    expect(rows.every((row) => row.values.every((value) => typeof value === 'string'))).toBe(true);
  });

  it('leaves merged areas blank except the top-left cell, and skips the empty row', async () => {
    const rows = await sheetRows('merge_cells.xlsx', 0);
    expect(rows.map((row) => row.line)).toEqual([1, 3, 4]);
    expect(rows[2]?.values[0]).toBe('… are merged separately');
  });

  it('defaults to the visible sheet of a Strict OOXML workbook whose hidden sheets come first in the zip', async () => {
    const source = await openRowSource(corpus('xlsx/sheet_visibility_strict.xlsx'));
    expect(source.sheets).toEqual([
      { name: 'Visible', index: 0, hidden: false },
      { name: 'Hidden', index: 1, hidden: true },
      { name: 'VeryHidden', index: 2, hidden: true },
    ]);
    expect(source.sheet).toBe('Visible');
    const rows = await collect(source.rows);
    expect(rows[0]?.cells).toMatchObject({ v: 118, i: 105, s: 115, e: 101 });
    const hidden = await openRowSource(corpus('xlsx/sheet_visibility_strict.xlsx'), {
      sheet: 'Hidden',
    });
    expect(hidden.sheet).toBe('Hidden');
    await hidden.close();
  });

  it('reads wtf_path.xlsx through its relationships, hidden sheet by index', async () => {
    const first = await inspectRowSource(corpus('xlsx/wtf_path.xlsx'));
    expect(first.sheets?.map((sheet) => [sheet.name, sheet.hidden])).toEqual([
      ['SheetJS', false],
      ['Hidden', true],
    ]);
    expect(first.rowCount).toBeGreaterThan(0);
    expect(first.preview[0]?.cells).toMatchObject({ '1': 'TRUE', '2': 'FALSE' });
    const hidden = await inspectRowSource(corpus('xlsx/wtf_path.xlsx'), { sheet: 1 });
    expect(hidden.sheet).toBe('Hidden');
    expect(hidden.rowCount).toBeGreaterThan(0);
  });

  it('addresses Unicode sheet names exactly', async () => {
    const inspected = await inspectRowSource(corpus('xlsx/defined_names_unicode.xlsx'), {
      sheet: '日本語のみ',
    }).catch((error: unknown) => error);
    // Each sheet holds a single cell: a header and no data.
    expect(inspected).toBeInstanceOf(SpreadsheetError);
    expect((inspected as SpreadsheetError).code).toBe('no-rows-found');
    const names = (
      await openXlsxSheet({ file: corpus('xlsx/defined_names_unicode.xlsx') })
    ).sheets.map((s) => s.name);
    expect(names).toEqual([
      'NoContainsJapanese',
      '日本語のみ',
      'sheet日本語',
      '日本語sheet',
      'sheet日本語sheet',
    ]);
  });

  it('reads the macro-enabled number_format.xlsm as raw values, never running macros', async () => {
    const inspected = await inspectRowSource(corpus('xlsx/number_format.xlsm'), {
      sheet: 'Miscellany',
    });
    expect(inspected.rowCount).toBe(8);
    expect(inspected.preview.map((row) => Object.values(row.cells)[0])).toContain(1_000_000);
  });

  it('refuses author_snowman.xlsx (an empty sheet) with no-rows-found', async () => {
    const error = await openRowSource(corpus('xlsx/author_snowman.xlsx')).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SpreadsheetError);
    expect((error as SpreadsheetError).code).toBe('no-rows-found');
  });

  it('refuses an unknown sheet with sheet-not-found, listing the sheets', async () => {
    const error = await openRowSource(corpus('xlsx/1900.xlsx'), { sheet: 'Nope' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as SpreadsheetError).code).toBe('sheet-not-found');
    expect((error as SpreadsheetError).message).toContain('"Sheet1"');
  });
});
