import { describe, expect, it } from 'vitest';
import { failed, rowContext, runningBatch } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)("a batch's circuit-breaker memory on %s", (_name, open) => {
  it('gives back the memory before each group and keeps the last outcomes and the run of failures', async () => {
    const data = await open();
    const { batch } = await runningBatch(data, 4);
    const record = (finished: string) => data.commands.recordRowOutcomes(batch.id, finished, 5);
    expect(await record('110')).toEqual({ recent: '', consecutiveFailures: 0 });
    expect(await record('00')).toEqual({ recent: '110', consecutiveFailures: 1 });
    // Only the last 5 are kept; a group with a success restarts the run at its trailing failures.
    expect(await record('0')).toEqual({ recent: '11000', consecutiveFailures: 3 });
    expect(await record('1000')).toEqual({ recent: '10000', consecutiveFailures: 4 });
    expect(await record('1')).toEqual({ recent: '01000', consecutiveFailures: 3 });
  });

  it('forgets everything when the batch is replayed', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 2);
    await data.commands.commitRows(
      rowContext(batch.id),
      rows.map((row) => failed(row.rowIndex)),
    );
    await data.commands.recordRowOutcomes(batch.id, '00', 50);
    await data.commands.finishBatch({
      batchId: batch.id,
      stopReason: null,
      ingestError: null,
      pausing: false,
    });
    await data.ledger.grant(2);
    await data.commands.replayBatch(batch.id);
    expect(await data.commands.recordRowOutcomes(batch.id, '1', 50)).toEqual({
      recent: '',
      consecutiveFailures: 0,
    });
  });

  it('keeps one memory for writers committing at once, each seeing the one before it', async () => {
    const data = await open();
    const { batch } = await runningBatch(data, 1);
    const befores = await Promise.all(
      Array.from({ length: 8 }, () => data.commands.recordRowOutcomes(batch.id, '0', 50)),
    );
    // Each group saw a different memory: 0, 1, … 7 failures before it, in some order.
    expect(befores.map((m) => m.consecutiveFailures).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(await data.commands.recordRowOutcomes(batch.id, '', 50)).toEqual({
      recent: '00000000',
      consecutiveFailures: 8,
    });
  });
});
