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

  it('exits 1 on overflowing text, a missing glyph and a bad value, each named by row in --json', async () => {
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
    };
    expect(report).toMatchObject({ valid: 1, invalid: 3 });
    const byRow = new Map(
      report.problems.map((p) => [p.rowIndex, p.errors.map((e) => e.message).join(' ')]),
    );
    expect(byRow.get(1)).toMatch(/too long for its space/);
    expect(byRow.get(2)).toMatch(/no bundled font can draw/);
    expect(report.problems.find((p) => p.rowIndex === 3)?.errors[0]?.path).toBe('values.price');
  });

  it('checks one set of --values, and lists problems in a table without --json', async () => {
    const result = await runCli([
      'check',
      '--template',
      REFERENCE,
      '--values',
      JSON.stringify({ ...productRow(0), headline: 'Siêu khuyến mãi cuối năm '.repeat(60) }),
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/0 ok, 1 with problems/);
    expect(result.stdout).toMatch(/values\.headline\s+the text is too long/);
  });
});
