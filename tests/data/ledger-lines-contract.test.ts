import { describe, expect, it } from 'vitest';
import { failed, rowContext, runningBatch, succeeded } from './batch-fixtures.js';
import { expectBalanced, useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('the ledger grouped by batch on %s', (_name, open) => {
  it('sums a batch into one line, keeps other entries whole, and leaves the entries as they were', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 6, 10);
    await data.commands.commitRows(rowContext(batch.id), [
      ...rows.slice(0, 4).map((row) => succeeded(batch.id, row)),
      failed(4),
    ]);
    await data.ledger.grant(3, { note: 'top-up' });

    // Entry by entry: the grant of 10, the hold of 6, a release and a debit per rendered row,
    // a release for the failed one, then the top-up.
    const exact = await data.ledger.list({ limit: 100 });
    expect(exact.entries).toHaveLength(12);
    expect(exact.entries.every((e) => e.entryCount === undefined)).toBe(true);

    const grouped = await data.ledger.list({ group: 'batch' });
    expect(grouped.entries.map((e) => [e.kind, e.amount, e.batchId, e.note])).toEqual([
      ['grant', 3, null, 'top-up'],
      ['debit', 4, batch.id, null],
      ['grant', 10, null, 'test credits'],
    ]);
    // One row is still running: the batch holds its credit.
    expect(grouped.entries[1]).toMatchObject({ entryCount: 10, heldCredits: 1, rowIndex: null });
    expect(grouped.entries[0]?.entryCount).toBeUndefined();
    expect(grouped.nextCursor).toBeNull();

    // A kind filter sums that kind per batch.
    const holds = await data.ledger.list({ group: 'batch', kind: 'hold' });
    expect(holds.entries.map((e) => [e.kind, e.amount, e.entryCount])).toEqual([['hold', 6, 1]]);
    const releases = await data.ledger.list({ group: 'batch', kind: 'release' });
    expect(releases.entries.map((e) => [e.kind, e.amount])).toEqual([['release', 5]]);

    // Pages of lines, newest first, with the same cursors as the entries.
    const first = await data.ledger.list({ group: 'batch', limit: 2 });
    expect(first.entries.map((e) => e.kind)).toEqual(['grant', 'debit']);
    const second = await data.ledger.list({ group: 'batch', limit: 2, cursor: first.nextCursor });
    expect(second.entries.map((e) => [e.kind, e.amount])).toEqual([['grant', 10]]);
    expect(second.nextCursor).toBeNull();

    expect(await data.ledger.list({ limit: 100 })).toEqual(exact);
    await expectBalanced(data);
  });

  it('shows an API key only its own batches and renders', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 2);
    await data.commands.commitRows(rowContext(batch.id), [succeeded(batch.id, rows[0]!)]);
    const mine = await data.ledger.list({ group: 'batch', apiKeyId: 'key_contract' });
    expect(mine.entries.map((e) => [e.kind, e.amount, e.batchId])).toEqual([
      ['debit', 1, batch.id],
    ]);
    expect((await data.ledger.list({ group: 'batch', apiKeyId: 'key_other' })).entries).toEqual([]);
  });
});
