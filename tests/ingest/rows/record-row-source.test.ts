import { describe, expect, it } from 'vitest';
import { openRecordRowSource } from '../../../main/ingest/rows/record-row-source.js';

describe('inline records as rows', () => {
  it('takes every key any record has as a field, in first-seen order, and keeps JSON values', async () => {
    const source = openRecordRowSource([
      { sku: 'A-1', price: 10 },
      { sku: 'A-2', tags: ['new', 'sale'], onSale: true },
      {},
    ]);
    expect(source.fields).toEqual(['sku', 'price', 'tags', 'onSale']);
    const rows = [];
    for await (const row of source.rows) rows.push(row);
    expect(rows).toEqual([
      { rowIndex: 0, line: null, cells: { sku: 'A-1', price: 10 } },
      { rowIndex: 1, line: null, cells: { sku: 'A-2', tags: ['new', 'sale'], onSale: true } },
      { rowIndex: 2, line: null, cells: {} },
    ]);
  });
});
