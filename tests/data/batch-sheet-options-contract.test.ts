import { describe, expect, it } from 'vitest';
import { newBatch, sourceRecords, succeeded } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('batch sheet options on %s', (_name, open) => {
  it('keeps a sheet batch’s options as given, null for single files, and reads succeeded rows with their records', async () => {
    const data = await open();
    await data.ledger.grant(3, { note: 'test credits' });
    const sheets = data.batches.newId();
    const options = {
      preset: 'a6-on-a4' as const,
      duplex: 'long-edge' as const,
      marks: 'cut' as const,
      sheetsPerPart: 2,
    };
    await data.commands.createBatch({
      batch: newBatch(sheets, 3, { target: 'badge', format: 'pdf', sheetOptions: options }),
      records: sourceRecords(3),
    });
    const plain = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(plain, 1), records: sourceRecords(1) });
    expect((await data.batches.get(sheets))?.sheetOptions).toEqual(options);
    expect((await data.batches.get(plain))?.sheetOptions).toBeNull();

    await data.batches.update(sheets, { status: 'running' });
    const claimed = await data.batches.claim(sheets, 3, Date.now() + 60_000);
    await data.commands.commitRows(
      { batchId: sheets, templateId: 'tmpl_x', ratio: 'badge', format: 'pdf', apiKeyId: null },
      claimed.filter((row) => row.rowIndex !== 1).map((row) => succeeded(sheets, row)),
    );
    const records = sourceRecords(3);
    expect(await data.batches.succeededRecords(sheets, 0, 10)).toEqual([
      { rowIndex: 0, record: records[0]!.record },
      { rowIndex: 2, record: records[2]!.record },
    ]);
    expect(await data.batches.succeededRecords(sheets, 1, 1)).toEqual([
      { rowIndex: 2, record: records[2]!.record },
    ]);
  });
});
