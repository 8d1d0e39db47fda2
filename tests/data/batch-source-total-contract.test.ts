import { describe, expect, it } from 'vitest';
import { batchSourceTotal } from '../../main/batch/batch-targets.js';
import { newBatch } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('batch source total on %s', (_name, open) => {
  it("keeps the source's row count with a batch of chosen rows; an older batch counts its own", async () => {
    const data = await open();
    await data.ledger.grant(10, { note: 'test credits' });
    const some = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(some, 2, {
        sourceType: 'csv',
        sourceRef: 'upl_contract',
        sourceRows: [3, 40],
        sourceTotal: 120,
      }),
    });
    const older = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(older, 4, { targets: ['square', 'story'] }),
    });
    const kept = await data.batches.get(some);
    expect([kept?.sourceTotal, kept && batchSourceTotal(kept)]).toEqual([120, 120]);
    const counted = await data.batches.get(older);
    // Four images of two sizes: two source rows.
    expect([counted?.sourceTotal, counted && batchSourceTotal(counted)]).toEqual([null, 2]);
    const unfinished = await data.batches.unfinished();
    expect(unfinished.find((b) => b.id === some)?.sourceTotal).toBe(120);
  });
});
