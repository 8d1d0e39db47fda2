import { describe, expect, it } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
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

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function uploadFor(data: CoreData): Promise<string> {
  const id = await data.uploads.newId();
  await data.uploads.insert({
    id,
    kind: 'csv',
    filename: 'products.csv',
    path: `uploads/${id}.csv`,
    bytes: 2048,
    contentType: 'text/csv',
    info: { rows: 5, fields: ['sku', 'headline', 'Giá'], encoding: 'utf-8' },
    apiKeyId: 'key_contract',
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  return id;
}

describe.each(implementations.all)('batch lifecycle on %s', (_name, open) => {
  it('creates a batch that holds one credit per row and gives its documents back as stored', async () => {
    const data = await open();
    await data.ledger.grant(10);
    const id = data.batches.newId();
    const input = newBatch(id, 4);
    const batch = await data.commands.createBatch({ batch: input, records: sourceRecords(4) });
    expect(batch).toEqual({
      ...input,
      succeeded: 0,
      failed: 0,
      ingested: 4,
      ingestComplete: true,
      stoppedReason: null,
      startedAt: null,
      finishedAt: null,
    });
    expect(Object.keys(batch.templateSnapshot as object)).toEqual(['name', 'layouts', 'id']);
    expect(await data.batches.get(id)).toEqual(batch);
    expect(await data.ledger.heldFor(id)).toBe(4);
    expect(await data.ledger.account()).toMatchObject({ balance: 6, heldCredits: 4 });
    expect(await data.batches.recordFields(id)).toEqual(['sku', 'headline', 'Giá']);
    expect(await data.batches.fileNames(id)).toEqual([
      'sku-0.png',
      'sku-1.png',
      'sku-2.png',
      'sku-3.png',
    ]);
    const manifest = await data.batches.manifest(id, 0, 10);
    expect(manifest).toHaveLength(4);
    expect(manifest[0]).toEqual({
      rowIndex: 0,
      // The record's line in its spreadsheet (header on line 1), as the manifest API gives it.
      line: 2,
      status: 'pending',
      renderId: expect.stringMatching(/^rnd_/),
      outputKey: null,
      error: null,
      fileName: 'sku-0.png',
    });
    expect(await data.batches.counts(id)).toEqual({
      pending: 4,
      running: 0,
      succeeded: 0,
      failed: 0,
      cancelled: 0,
    });
    expect((await data.batches.unfinished()).map((b) => b.id)).toEqual([id]);
    await expectBalanced(data);
  });

  it('creates a batch without enough credits already failed, holding nothing', async () => {
    const data = await open();
    await data.ledger.grant(2);
    const id = data.batches.newId();
    const input = newBatch(id, 3);
    const batch = await data.commands.createBatch({ batch: input, records: sourceRecords(3) });
    expect(batch).toMatchObject({
      status: 'failed',
      rejectedReason: 'insufficient-credits',
      finishedAt: input.createdAt,
    });
    expect(await data.ledger.heldFor(id)).toBe(0);
    expect(await data.ledger.account()).toEqual({
      balance: 2,
      heldCredits: 0,
      granted: 2,
      debited: 0,
    });
    expect((await data.ledger.list()).entries.map((e) => e.kind)).toEqual(['grant']);
    expect(await data.batches.unfinished()).toEqual([]);
    await expectBalanced(data);
  });

  it('ingests rows in groups: unreadable rows fail at once and give back their holds, a short source the rest', async () => {
    const data = await open();
    await data.ledger.grant(10);
    const uploadId = await uploadFor(data);
    const id = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(id, 5, { sourceType: 'csv', sourceRef: uploadId }),
      uploadRef: uploadId,
    });
    expect((await data.uploads.get(uploadId))?.expiresAt).toBeNull();
    expect(await data.ledger.heldFor(id)).toBe(5);

    const firstGroup = sourceRecords(3);
    firstGroup[1] = { ...firstGroup[1]!, error: 'Line 3: the row has 5 cells; the header has 3.' };
    await data.commands.ingestRows(id, firstGroup, 3);
    // A resumed ingest offers the same rows again: nothing changes.
    await data.commands.ingestRows(id, firstGroup, 3);
    expect(await data.batches.get(id)).toMatchObject({
      ingested: 3,
      ingestComplete: false,
      failed: 1,
    });
    expect(await data.ledger.heldFor(id)).toBe(4);
    expect((await data.batches.manifest(id, 1, 1))[0]).toMatchObject({
      status: 'failed',
      error: 'Line 3: the row has 5 cells; the header has 3.',
    });

    await data.commands.ingestRows(id, sourceRecords(1, 3), 4);
    await data.commands.completeIngest(id, 4);
    expect(await data.batches.get(id)).toMatchObject({
      total: 4,
      ingested: 4,
      ingestComplete: true,
    });
    expect(await data.ledger.heldFor(id)).toBe(3);
    expect(await data.batches.counts(id)).toMatchObject({ pending: 3, failed: 1 });
    await expectBalanced(data);
  });

  it('records a short source after a cancel without giving back holds it no longer has', async () => {
    const data = await open();
    await data.ledger.grant(5);
    const id = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(id, 5, { sourceType: 'csv' }) });
    await data.commands.ingestRows(id, sourceRecords(2), 2);
    await data.commands.cancelBatch(id);
    // The reader was already past the cancel: it reports the source's real length.
    await data.commands.completeIngest(id, 3);
    expect(await data.batches.get(id)).toMatchObject({
      status: 'cancelled',
      total: 3,
      ingested: 3,
      ingestComplete: true,
    });
    expect(await data.ledger.heldFor(id)).toBe(0);
    await expectBalanced(data);
  });

  it('finishes as succeeded, partial or failed, releasing what it still holds', async () => {
    const data = await open();
    const outcomes = {
      succeeded: [true, true],
      partial: [true, false],
      failed: [false, false],
    } as const;
    for (const [expected, oks] of Object.entries(outcomes)) {
      const { batch, rows } = await runningBatch(data, 2);
      await data.commands.commitRows(
        rowContext(batch.id),
        rows.map((row, i) => (oks[i] ? succeeded(batch.id, row) : failed(row.rowIndex))),
      );
      const finished = await data.commands.finishBatch({
        batchId: batch.id,
        stopReason: null,
        ingestError: null,
        pausing: false,
      });
      expect(finished).toMatchObject({ status: expected, finishedAt: expect.stringMatching(ISO) });
      expect(await data.ledger.heldFor(batch.id)).toBe(0);
    }
    expect(await data.ledger.account()).toMatchObject({ heldCredits: 0, debited: 3 });
    await expectBalanced(data);
  });

  it('stops early as degraded with the reason, releasing every hold; pausing leaves it running', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 4);
    await data.commands.commitRows(rowContext(batch.id), [succeeded(batch.id, rows[0]!)]);
    const finish = { batchId: batch.id, stopReason: null, ingestError: null, pausing: false };

    expect(await data.commands.finishBatch({ ...finish, pausing: true })).toMatchObject({
      status: 'running',
    });
    // Rows are still unfinished: the batch keeps running.
    expect(await data.commands.finishBatch(finish)).toMatchObject({ status: 'running' });
    expect(await data.ledger.heldFor(batch.id)).toBe(3);

    const stopped = await data.commands.finishBatch({
      ...finish,
      stopReason: '10 rows in a row failed',
    });
    expect(stopped).toMatchObject({
      status: 'degraded',
      stoppedReason:
        'Stopped early because 10 rows in a row failed. Fix the cause and replay the batch.',
    });
    expect(await data.ledger.heldFor(batch.id)).toBe(0);
    // A terminal batch is left as it is.
    expect(await data.commands.finishBatch(finish)).toEqual(stopped);

    const other = await runningBatch(data, 1);
    expect(
      await data.commands.finishBatch({
        batchId: other.batch.id,
        stopReason: null,
        ingestError: 'the file ended inside a quoted cell',
        pausing: true,
      }),
    ).toMatchObject({
      status: 'degraded',
      stoppedReason: 'Reading the source failed: the file ended inside a quoted cell',
    });
    expect(await data.ledger.account()).toMatchObject({ heldCredits: 0, debited: 1 });
    await expectBalanced(data);
  });

  it('cancels pending rows and releases the holds; a terminal batch stays as it is', async () => {
    const data = await open();
    await data.ledger.grant(5);
    const id = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(id, 5), records: sourceRecords(5) });
    const cancelled = await data.commands.cancelBatch(id);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      finishedAt: expect.stringMatching(ISO),
    });
    expect(await data.batches.counts(id)).toMatchObject({ cancelled: 5, pending: 0 });
    expect(await data.ledger.heldFor(id)).toBe(0);
    expect((await data.ledger.list({ limit: 1 })).entries[0]).toMatchObject({
      kind: 'release',
      amount: 5,
      batchId: id,
      note: 'Cancelled',
    });
    expect(await data.commands.cancelBatch(id)).toEqual(cancelled);
    expect(await data.commands.cancelBatch('bat_missing')).toBeNull();
    await expectBalanced(data);
  });

  it('replays failed and cancelled rows with a new hold, and refuses what it cannot replay', async () => {
    const data = await open();
    const { batch, rows } = await runningBatch(data, 3, 5);
    await expect(data.commands.replayBatch(batch.id)).rejects.toMatchObject({
      code: 'batch-not-terminal',
      message: `Batch ${batch.id} is still running; replay it once it has finished.`,
    });
    await data.commands.commitRows(rowContext(batch.id), [
      succeeded(batch.id, rows[0]!),
      failed(1),
      failed(2),
    ]);
    await data.commands.finishBatch({
      batchId: batch.id,
      stopReason: null,
      ingestError: null,
      pausing: false,
    });
    const replayed = await data.commands.replayBatch(batch.id);
    expect(replayed).toMatchObject({
      status: 'queued',
      failed: 0,
      succeeded: 1,
      finishedAt: null,
      stoppedReason: null,
    });
    expect(await data.ledger.heldFor(batch.id)).toBe(2);
    const manifest = await data.batches.manifest(batch.id, 0, 10);
    expect(manifest.map((row) => [row.status, row.error])).toEqual([
      ['succeeded', null],
      ['pending', null],
      ['pending', null],
    ]);
    // Succeeded rows keep their render id and output across replays.
    expect(manifest[0]).toMatchObject({
      renderId: rows[0]!.renderId,
      outputKey: `batches/${batch.id}/0.png`,
    });

    await data.batches.update(batch.id, { status: 'running' });
    const again = await data.batches.claim(batch.id, 10, Date.now() + 60_000);
    await data.commands.commitRows(
      rowContext(batch.id),
      again.map((row) => succeeded(batch.id, row)),
    );
    await data.commands.finishBatch({
      batchId: batch.id,
      stopReason: null,
      ingestError: null,
      pausing: false,
    });
    await expect(data.commands.replayBatch(batch.id)).rejects.toMatchObject({
      code: 'nothing-to-replay',
      message: `Every row of batch ${batch.id} succeeded; there is nothing to replay.`,
    });
    await expect(data.commands.replayBatch('bat_missing')).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(await data.ledger.account()).toMatchObject({ heldCredits: 0, debited: 3, balance: 2 });
    await expectBalanced(data);
  });

  it('refuses a replay it cannot pay for and leaves the batch as it was', async () => {
    const data = await open();
    await data.ledger.grant(3);
    const batch = await data.commands.createBatch({
      batch: newBatch(data.batches.newId(), 3),
      records: sourceRecords(3),
    });
    const cancelled = await data.commands.cancelBatch(batch.id);
    await data.commands.commitSingleRender({
      renderId: 'rnd_spend0001',
      apiKeyId: 'key_contract',
      templateId: 'tmpl_product_promo',
      ratio: 'square',
      format: 'png',
      bytes: 10,
    });
    await expect(data.commands.replayBatch(batch.id)).rejects.toMatchObject({
      code: 'insufficient-credits',
      message: 'This needs 3 credits but the balance is 2. Add credits and retry.',
    });
    expect(await data.batches.get(batch.id)).toEqual(cancelled);
    expect(await data.batches.counts(batch.id)).toMatchObject({ cancelled: 3 });
    await expectBalanced(data);
  });

  it('lists newest first, and removes a batch with its rows while its ledger entries stay', async () => {
    const data = await open();
    await data.ledger.grant(10);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const id = data.batches.newId();
      ids.push(id);
      const createdAt = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      await data.commands.createBatch({
        batch: newBatch(id, 1, { createdAt }),
        records: sourceRecords(1),
      });
    }
    expect((await data.batches.list({ limit: 2 })).map((b) => b.id)).toEqual([ids[2], ids[1]]);
    expect((await data.batches.unfinished()).map((b) => b.id)).toEqual(ids);
    await data.commands.cancelBatch(ids[0]!);
    expect(await data.batches.remove(ids[0]!)).toBe(true);
    expect(await data.batches.remove(ids[0]!)).toBe(false);
    expect(await data.batches.get(ids[0]!)).toBeNull();
    expect(await data.batches.manifest(ids[0]!, 0, 10)).toEqual([]);
    expect(
      (await data.ledger.list({ limit: 10 })).entries.filter((e) => e.batchId === ids[0]),
    ).toHaveLength(2);
    await expectBalanced(data);
  });
});
