import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerBalance, productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { runCli, tempDir, writeCsv } from '../helpers/run-cli.js';

describe('render-desk check', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-check-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(() => temp.remove());

  it('exits 0 for a clean source and renders or charges nothing', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    writeCsv(source, [0, 1].map(productRow));
    const result = await runCli([
      'check',
      '--template',
      REFERENCE,
      '--source',
      source,
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/checked 2 rows of rows\.csv .*: 2 ok, 0 with problems/);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 100, debited: 0 });
    expect(fs.readdirSync(path.join(dataDir, 'outputs')).filter((n) => n !== 'batches')).toEqual(
      [],
    );
  });

  it('exits 1 on a missing glyph and a bad value (problems by row) and on overflowing text (a warning)', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    writeCsv(source, [
      productRow(0),
      { ...productRow(1), headline: 'Siêu khuyến mãi cuối năm '.repeat(60) },
      { ...productRow(2), headline: 'Tết \u{10FFFD}' },
      { ...productRow(3), price: 'n/a' },
    ]);
    const result = await runCli([
      'check',
      '--template',
      REFERENCE,
      '--source',
      source,
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      valid: number;
      invalid: number;
      problems: { rowIndex: number; errors: { path: string; message: string }[] }[];
      warnings: { path: string; message: string; rows: number }[];
    };
    expect(report).toMatchObject({ valid: 2, invalid: 2 });
    const byRow = new Map(report.problems.map((p) => [p.rowIndex, p.errors]));
    expect(
      byRow
        .get(2)
        ?.map((e) => e.message)
        .join(' '),
    ).toMatch(/no bundled font can draw/);
    expect(byRow.get(3)?.[0]?.path).toBe('values.price');
    expect(report.warnings).toEqual([
      expect.objectContaining({
        path: 'values.headline',
        rows: 1,
        message: expect.stringMatching(/too long for its space/),
      }),
    ]);
  });

  it('fails on overflowing --values in a table, unless --warnings-ok', async () => {
    const values = JSON.stringify({
      ...productRow(0),
      headline: 'Siêu khuyến mãi cuối năm '.repeat(60),
    });
    const result = await runCli([
      'check',
      '--template',
      REFERENCE,
      '--values',
      values,
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/1 ok, 0 with problems, 1 warning/);
    expect(result.stdout).toMatch(/values\.headline\s+the text is too long/);
    const tolerated = await runCli([
      'check',
      '--template',
      REFERENCE,
      '--values',
      values,
      '--warnings-ok',
      '--data-dir',
      dataDir,
    ]);
    expect(tolerated.code).toBe(0);
  });
});
