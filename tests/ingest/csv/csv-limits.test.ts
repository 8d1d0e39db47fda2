import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvLimits, type CsvLimitOptions } from '../../../main/ingest/csv/csv-limits.js';
import { inspectRowSource } from '../../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import { createTempDir } from '../fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

/** The code of the limit the text crosses, fed in pieces of 1–`piece` characters; null if none. */
function crossed(text: string, options: CsvLimitOptions, next: () => number, piece = 5) {
  const limits = new CsvLimits(',', options);
  try {
    for (let i = 0; i < text.length;) {
      const end = i + 1 + Math.floor(next() * piece);
      limits.scan(text.slice(i, end));
      i = end;
    }
    return null;
  } catch (error) {
    return (error as SpreadsheetError).code;
  }
}

/** A small deterministic generator (mulberry32), so a failure can be reproduced. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('CSV limits', () => {
  it('count the cells and cell lengths csv-parse reads, on 10,000 random texts cut anywhere', () => {
    const next = random(19);
    const pieces = ['a', 'b', ',', '"', '"', '""', '\r', '\n', '\r\n', ' '];
    const huge = 1e9;
    let compared = 0;
    for (let n = 0; n < 10_000; n += 1) {
      let text = '';
      for (let i = 1 + Math.floor(next() * 24); i > 0; i -= 1)
        text += pieces[Math.floor(next() * pieces.length)];
      let records: string[][];
      try {
        records = parse(text, {
          delimiter: ',',
          record_delimiter: ['\r\n', '\n', '\r'],
          quote: '"',
          escape: '"',
          relax_quotes: true,
          relax_column_count: true,
          skip_empty_lines: true,
        }) as string[][];
      } catch {
        continue; // a quote never closed: the parser's own error, not a limit
      }
      compared += 1;
      const columns = Math.max(0, ...records.map((record) => record.length));
      const cell = Math.max(0, ...records.flat().map((value) => value.length));
      const exact = { maxColumns: Math.max(1, columns), maxCellChars: cell, maxRowChars: huge };
      expect(crossed(text, exact, next), text).toBe(null);
      if (columns > 1) {
        expect(crossed(text, { ...exact, maxColumns: columns - 1 }, next), text).toBe(
          'too-many-columns',
        );
      }
      if (cell > 0) {
        expect(
          crossed(text, { ...exact, maxColumns: huge, maxCellChars: cell - 1 }, next),
          text,
        ).toBe('cell-too-large');
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it('count delimiters in quoted cells as text: 1,000 columns whose cells hold commas are read', async () => {
    const header = Array.from({ length: 1_000 }, (_, i) => `"c${i}, with a comma"`).join(',');
    const inspected = await inspectRowSource(
      temp.file('wide.csv', `${header}\n${'1,'.repeat(999)}1\n`),
    );
    expect(inspected.fields).toHaveLength(1_000);
    expect(inspected.fields[999]).toBe('c999, with a comma');
  });

  it('name the line a too-wide row starts on, after line breaks inside quoted cells', async () => {
    const text = `a,b\r\n"one\r\ntwo",x\r\n\r\n"three\nfour\rfive",${','.repeat(1_000)}\r\n`;
    const error = await inspectRowSource(temp.file('lines.csv', text)).catch(
      (caught: unknown) => caught as SpreadsheetError,
    );
    expect(error).toBeInstanceOf(SpreadsheetError);
    expect(error).toMatchObject({ code: 'too-many-columns', location: { line: 5 } });
  });
});
