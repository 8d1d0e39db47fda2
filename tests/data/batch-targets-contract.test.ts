import { describe, expect, it } from 'vitest';
import { newBatch, sourceRecords } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('a batch of several sizes on %s', (_name, open) => {
  it('keeps its layouts, and a batch of one layout has none', async () => {
    const data = await open();
    await data.ledger.grant(10);
    const id = data.batches.newId();
    const input = newBatch(id, 4, { targets: ['square', 'story'] });
    const created = await data.commands.createBatch({ batch: input, records: sourceRecords(4) });
    expect(created.targets).toEqual(['square', 'story']);
    expect((await data.batches.get(id))?.targets).toEqual(['square', 'story']);

    const single = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(single, 2), records: sourceRecords(2) });
    expect((await data.batches.get(single))?.targets).toBeNull();
  });
});
