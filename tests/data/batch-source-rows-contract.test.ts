import { describe, expect, it } from 'vitest';
import { newBatch } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('batch source rows on %s', (_name, open) => {
  it('keeps the chosen rows of an upload with the batch, null for every row', async () => {
    const data = await open();
    await data.ledger.grant(10, { note: 'test credits' });
    const some = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(some, 3, {
        sourceType: 'csv',
        sourceRef: 'upl_contract',
        sourceRows: [2, 7, 40_000],
      }),
    });
    const every = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(every, 2, { sourceType: 'csv', sourceRef: 'upl_contract' }),
    });
    const kept = await data.batches.get(some);
    expect(kept?.sourceRows).toEqual([2, 7, 40_000]);
    expect(kept?.total).toBe(3);
    expect((await data.batches.get(every))?.sourceRows).toBeNull();
    // The batches a restart continues carry them too.
    const unfinished = await data.batches.unfinished();
    expect(unfinished.find((b) => b.id === some)?.sourceRows).toEqual([2, 7, 40_000]);
  });
});
