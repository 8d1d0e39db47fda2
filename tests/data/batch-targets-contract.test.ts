import { describe, expect, it } from 'vitest';
import { newBatch, sourceRecords } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('a batch of several sizes on %s', (name, open) => {
  it(
    name === 'sqlite' ? 'keeps its layouts' : 'is refused with a 422 naming targets, nothing held',
    async () => {
      const data = await open();
      await data.ledger.grant(10);
      const id = data.batches.newId();
      const input = newBatch(id, 4, { targets: ['square', 'story'] });
      const create = data.commands.createBatch({ batch: input, records: sourceRecords(4) });
      if (name === 'sqlite') {
        expect((await create).targets).toEqual(['square', 'story']);
        expect((await data.batches.get(id))?.targets).toEqual(['square', 'story']);
        return;
      }
      await expect(create).rejects.toMatchObject({
        code: 'validation-failed',
        problems: [{ path: 'targets' }],
      });
      expect(await data.batches.get(id)).toBeNull();
      expect(await data.ledger.account()).toMatchObject({ balance: 10, heldCredits: 0 });
    },
  );
});
