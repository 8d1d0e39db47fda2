import { describe, expect, it } from 'vitest';
import type { SucceededRow } from '../../main/data/core-data.js';
import type { RowOutcome } from '../../main/data/data-commands.js';
import {
  failed,
  newBatch,
  rowContext,
  runningBatch,
  sourceRecords,
  succeeded,
} from './batch-fixtures.js';
import { expectBalanced, useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('committing batch rows on %s', (_name, open) => {
  it('turns a success into a debit with its render record, and a failure into a release', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 3, 5);
    const changed = await data.commands.commitRows(rowContext(batch.id), [
      succeeded(batch.id, rows[0]!),
      failed(1, 'The photo "sku-1.jpg" is not in the images folder.'),
    ]);
    expect(changed).toBe(2);
    expect(await data.batches.get(batch.id)).toMatchObject({ succeeded: 1, failed: 1 });
    expect(await data.batches.counts(batch.id)).toEqual({
      pending: 0,
      running: 1,
      succeeded: 1,
      failed: 1,
      cancelled: 0,
    });
    expect(await data.batches.manifest(batch.id, 0, 2)).toEqual([
      {
        rowIndex: 0,
        line: 2,
        status: 'succeeded',
        renderId: rows[0]!.renderId,
        outputKey: `batches/${batch.id}/0.png`,
        error: null,
        fileName: 'sku-0.png',
      },
      {
        rowIndex: 1,
        line: 3,
        status: 'failed',
        renderId: rows[1]!.renderId,
        outputKey: null,
        error: 'The photo "sku-1.jpg" is not in the images folder.',
        fileName: 'sku-1.png',
      },
    ]);
    expect(await data.renders.get(rows[0]!.renderId)).toEqual({
      id: rows[0]!.renderId,
      templateId: 'tmpl_product_promo',
      ratio: 'square',
      format: 'png',
      apiKeyId: 'key_contract',
      batchId: batch.id,
      rowIndex: 0,
      outputKey: `batches/${batch.id}/0.png`,
      bytes: 1000,
      createdAt: expect.any(String),
    });
    expect(await data.renders.get(rows[1]!.renderId)).toBeNull();

    // Newest first: the failure's release, then the success's release + debit pair.
    const entries = (await data.ledger.list({ limit: 3 })).entries;
    expect(
      entries.map((e) => [e.kind, e.amount, e.batchId, e.rowIndex, e.renderId, e.note]),
    ).toEqual([
      ['release', 1, batch.id, null, null, null],
      ['debit', 1, batch.id, 0, rows[0]!.renderId, null],
      ['release', 1, batch.id, 0, rows[0]!.renderId, 'settled'],
    ]);
    expect(await data.ledger.heldFor(batch.id)).toBe(1);
    expect(await data.ledger.account()).toEqual({
      balance: 3,
      heldCredits: 1,
      granted: 5,
      debited: 1,
    });
    await expectBalanced(data);
  });

  it('charges once when the same outcomes are committed twice, and the second commit changes nothing', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 4);
    const outcomes: RowOutcome[] = [
      succeeded(batch.id, rows[0]!),
      succeeded(batch.id, rows[1]!),
      failed(2),
    ];
    expect(await data.commands.commitRows(rowContext(batch.id), outcomes)).toBe(3);
    const ledgerAfterFirst = await data.ledger.list({ limit: 100 });
    const batchAfterFirst = await data.batches.get(batch.id);
    expect(await data.commands.commitRows(rowContext(batch.id), outcomes)).toBe(0);
    // A late duplicate that now says "failed" for a succeeded row changes nothing either.
    expect(await data.commands.commitRows(rowContext(batch.id), [failed(0)])).toBe(0);
    expect(await data.ledger.list({ limit: 100 })).toEqual(ledgerAfterFirst);
    expect(await data.batches.get(batch.id)).toEqual(batchAfterFirst);
    expect(await data.ledger.account()).toMatchObject({ debited: 2, heldCredits: 1 });
    await expectBalanced(data);
  });

  it('commits a row listed twice in one group once, as its first listing says', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 2);
    const changed = await data.commands.commitRows(rowContext(batch.id), [
      succeeded(batch.id, rows[0]!),
      failed(0),
      succeeded(batch.id, rows[0]!),
    ]);
    expect(changed).toBe(1);
    expect((await data.batches.manifest(batch.id, 0, 1))[0]?.status).toBe('succeeded');
    expect(await data.ledger.account()).toMatchObject({ debited: 1, heldCredits: 1 });
    await expectBalanced(data);
  });

  it('does not charge rows of a cancelled or removed batch', async () => {
    const data = await open();
    await data.ledger.grant(2);
    const cancelled = await data.commands.createBatch({
      batch: newBatch(data.batches.newId(), 2),
      records: sourceRecords(2),
    });
    const [first] = await data.batches.manifest(cancelled.id, 0, 1);
    await data.commands.cancelBatch(cancelled.id);
    expect(
      await data.commands.commitRows(rowContext(cancelled.id), [
        succeeded(cancelled.id, { rowIndex: 0, renderId: first!.renderId }),
      ]),
    ).toBe(0);

    const removed = await runningBatch(data, 1);
    await data.commands.cancelBatch(removed.batch.id);
    await data.batches.remove(removed.batch.id);
    expect(
      await data.commands.commitRows(rowContext(removed.batch.id), [
        succeeded(removed.batch.id, removed.rows[0]!),
      ]),
    ).toBe(0);
    expect(await data.ledger.account()).toMatchObject({ debited: 0, heldCredits: 0, balance: 3 });
    await expectBalanced(data);
  });

  it('refuses a success once the batch has given back its holds, and commits nothing of that group', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 3);
    await data.commands.finishBatch({
      batchId: batch.id,
      stopReason: 'the disk is full',
      ingestError: null,
      pausing: false,
    });
    const before = await data.batches.manifest(batch.id, 0, 10);
    await expect(
      data.commands.commitRows(rowContext(batch.id), [failed(0), succeeded(batch.id, rows[1]!)]),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: `Batch "${batch.id}" holds no credit for row 1.`,
    });
    expect(await data.batches.manifest(batch.id, 0, 10)).toEqual(before);
    expect(await data.ledger.account()).toMatchObject({ debited: 0, heldCredits: 0, balance: 3 });
    await expectBalanced(data);
  });

  it('gives each of several groups sent at once the result it would get alone, in order', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 16);
    const ok = (from: number, to: number) =>
      rows.slice(from, to).map((row) => succeeded(batch.id, row));
    const counts = await Promise.all([
      data.commands.commitRows(rowContext(batch.id), ok(0, 10)),
      data.commands.commitRows(rowContext(batch.id), ok(5, 15)),
      data.commands.commitRows(rowContext(batch.id), [failed(0), failed(1), failed(15)]),
    ]);
    expect(counts).toEqual([10, 5, 1]);

    // One credit left for three rows: the first success takes it, the second is refused alone.
    const other = await runningBatch(data, 3);
    await data.ledger.release({ batchId: other.batch.id, amount: 2 });
    const results = await Promise.allSettled([
      data.commands.commitRows(rowContext(other.batch.id), [
        succeeded(other.batch.id, other.rows[0]!),
      ]),
      data.commands.commitRows(rowContext(other.batch.id), [
        succeeded(other.batch.id, other.rows[1]!),
      ]),
      data.commands.commitRows(rowContext(other.batch.id), [failed(2)]),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 1 });
    expect(results[1]).toMatchObject({
      status: 'rejected',
      reason: { code: 'conflict', message: `Batch "${other.batch.id}" holds no credit for row 1.` },
    });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 1 });
    expect(await data.ledger.account()).toMatchObject({ debited: 16, heldCredits: 0 });
    await expectBalanced(data);
  });

  it('pages the manifest in rowIndex order, with or without a status filter', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 7);
    await data.commands.commitRows(
      rowContext(batch.id),
      rows.map((row) => (row.rowIndex % 3 === 0 ? failed(row.rowIndex) : succeeded(batch.id, row))),
    );
    const pages: number[][] = [];
    for (let cursor = 0; ;) {
      const page = await data.batches.manifest(batch.id, cursor, 3);
      pages.push(page.map((row) => row.rowIndex));
      if (page.length < 3) break;
      cursor = page.at(-1)!.rowIndex + 1;
    }
    expect(pages).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect((await data.batches.manifest(batch.id, 2, 10, 'failed')).map((r) => r.rowIndex)).toEqual(
      [3, 6],
    );
    await expectBalanced(data);
  });

  it('streams 2,500 succeeded rows in rowIndex order, page after page', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 2_500);
    const outcomes = rows.map((row) =>
      row.rowIndex % 10 === 7 ? failed(row.rowIndex) : succeeded(batch.id, row),
    );
    for (let i = 0; i < outcomes.length; i += 250) {
      expect(await data.commands.commitRows(rowContext(batch.id), outcomes.slice(i, i + 250))).toBe(
        250,
      );
    }
    const streamed: SucceededRow[] = [];
    for await (const row of data.batches.succeededRows(batch.id)) streamed.push(row);
    expect(streamed).toHaveLength(2_250);
    expect(streamed.every((row, i) => i === 0 || row.rowIndex > streamed[i - 1]!.rowIndex)).toBe(
      true,
    );
    expect(streamed.some((row) => row.rowIndex % 10 === 7)).toBe(false);
    expect(streamed.at(-1)).toEqual({
      rowIndex: 2_499,
      outputKey: `batches/${batch.id}/2499.png`,
      fileName: 'sku-2499.png',
    });
    expect(await data.batches.get(batch.id)).toMatchObject({ succeeded: 2_250, failed: 250 });
    expect(await data.ledger.account()).toMatchObject({ debited: 2_250, heldCredits: 0 });
    await expectBalanced(data);
  });

  it('gives rows whose lease ran out back to pending, and claims each row once', async () => {
    const data = await open();
    await data.ledger.grant(4);
    const id = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(id, 4), records: sourceRecords(4) });
    const first = await data.batches.claim(id, 3, 1_000);
    expect(first.map((row) => [row.rowIndex, row.attempts])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect((await data.batches.claim(id, 3, 1_000)).map((row) => row.rowIndex)).toEqual([3]);
    expect(await data.batches.releaseExpired(999, id)).toBe(0);
    expect(await data.batches.releaseExpired(1_000)).toBe(4);
    const again = await data.batches.claim(id, 10, 2_000);
    expect(again.map((row) => [row.rowIndex, row.attempts])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    expect(again[0]?.record).toEqual({ sku: 'SKU-0', headline: 'Row 0', Giá: 0 });
    expect(Object.keys(again[0]!.record)).toEqual(['sku', 'headline', 'Giá']);
    await expectBalanced(data);
  });
});
