import { initialiseAccount, type Store } from '../store/create-store.js';
import { WalSync } from '../store/wal-sync.js';
import { createWebhooksRepository } from '../store/webhooks-repository.js';
import { asyncPort } from './async-port.js';
import type { BatchReads, CoreData } from './core-data.js';
import { toQueuedRow, type QueuedDbRow } from './rows/batch-rows.js';
import { jsonText } from './rows/json-column.js';
import * as lifecycle from './rules/batch-lifecycle.js';
import type { DataCommands, RowOutcome, RowOutcomeContext } from './data-commands.js';
import { idempotencyCompletion, singleRenderRecord } from './rules/single-render-commit.js';
import type { BatchRecord } from './types/batch-record.js';
import { EMPTY_BREAKER_MEMORY, rememberOutcomes } from './rules/breaker-memory.js';

/** Embedded mode: the SQLite store behind the async ports (each call is a synchronous statement). */
export function sqliteCoreData(store: Store): CoreData {
  const walSync = new WalSync(store.db);
  return {
    kind: 'sqlite',
    // Each commit is an fsync on the API thread; a row shown done 50 ms later loses nothing (a
    // crash renders it again, uncharged).
    commitGroup: { rows: 64, windowMs: 50 },
    settings: asyncPort(store.settings),
    apiKeys: asyncPort(store.apiKeys),
    ledger: asyncPort({
      account: store.ledger.account,
      grant: store.ledger.grant,
      release: store.ledger.release,
      heldFor: store.ledger.heldFor,
      list: store.ledger.list,
      verifyInvariant: store.ledger.verifyInvariant,
    }),
    idempotency: asyncPort(store.idempotency),
    renders: asyncPort({ get: store.renders.get }),
    brandProfiles: asyncPort(store.brandProfiles),
    subscription: asyncPort(store.subscription),
    uploads: asyncPort(store.uploads),
    webhooks: asyncPort(createWebhooksRepository(store.db)),
    batches: sqliteBatchReads(store),
    commands: sqliteCommands(store, walSync),
    close: async () => {
      await walSync.close();
      store.close();
    },
  };
}

function sqliteBatchReads(store: Store): BatchReads {
  const { batches, db } = store;
  const inRange = db.prepare<[string, number, number], QueuedDbRow>(
    `SELECT row_index, line, record, attempts, render_id FROM batch_rows
     WHERE batch_id = ? AND status IN ('pending', 'running') AND row_index >= ? AND row_index < ?
     ORDER BY row_index`,
  );
  const succeededRecords = db.prepare<
    [string, number, number],
    { row_index: number; record: string }
  >(
    `SELECT row_index, record FROM batch_rows
     WHERE batch_id = ? AND status = 'succeeded' AND row_index >= ? ORDER BY row_index LIMIT ?`,
  );
  const sync = asyncPort({
    get: batches.get,
    list: batches.list,
    unfinished: batches.unfinished,
    update: batches.update,
    counts: batches.counts,
    manifest: batches.manifest,
    fileNames: batches.fileNames,
    recordFields: batches.recordFields,
    claim: batches.claim,
    releaseExpired: batches.releaseExpired,
    remove: batches.remove,
  });
  return {
    ...sync,
    newId: () => batches.newId(),
    async *succeededRows(id) {
      // Pages of rows, so the read transaction never spans a slow client's download.
      let after = -1;
      for (;;) {
        const page = batches.manifest(id, after + 1, 1000, 'succeeded');
        for (const row of page)
          if (row.outputKey)
            yield {
              rowIndex: row.rowIndex,
              outputKey: row.outputKey,
              fileName: row.fileName ?? null,
            };
        const last = page.at(-1);
        if (!last || page.length < 1000) return;
        after = last.rowIndex;
        await Promise.resolve();
      }
    },
    succeededRecords(batchId, from, limit) {
      return Promise.resolve(
        succeededRecords.all(batchId, from, limit).map((row) => ({
          rowIndex: row.row_index,
          record: JSON.parse(row.record) as Record<string, unknown>,
        })),
      );
    },
    pendingInRange(batchId, from, to) {
      return Promise.resolve(
        inRange.all(batchId, from, to).map((row) => toQueuedRow(row, jsonText)),
      );
    },
  };
}

function sqliteCommands(store: Store, walSync: WalSync): DataCommands {
  const { db, batches, ledger } = store;
  const run = <T>(work: () => T): Promise<T> => {
    try {
      return Promise.resolve(db.transaction(work).immediate());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const commitOne = (context: RowOutcomeContext, outcome: RowOutcome): boolean => {
    const { batchId } = context;
    if (!outcome.ok) {
      const failed = batches.fail(batchId, outcome.rowIndex, outcome.error);
      if (failed && ledger.heldFor(batchId) > 0) ledger.release({ batchId, amount: 1 });
      return failed;
    }
    const { rowIndex, renderId, outputKey } = outcome;
    if (!batches.complete(batchId, rowIndex, { renderId, outputKey })) return false;
    ledger.settleHeldRow({ batchId, rowIndex, renderId, apiKeyId: context.apiKeyId });
    store.renders.insert({
      id: renderId,
      templateId: context.templateId,
      ratio: context.ratio,
      format: context.format,
      apiKeyId: context.apiKeyId,
      batchId,
      rowIndex,
      outputKey,
      bytes: outcome.bytes,
    });
    return true;
  };

  return {
    createBatch: ({ batch, records, uploadRef }) =>
      run(() => {
        batches.create(batch);
        if (records) {
          batches.enqueue(batch.id, records);
          batches.markIngested(batch.id, batch.total, true);
        }
        if (uploadRef) store.uploads.markUsed(uploadRef);
        if (ledger.account().balance < batch.total) {
          // Spec §4.3 rule 7: no row renders, and the batch says why.
          batches.update(batch.id, lifecycle.rejectedForCredits(batch));
        } else {
          ledger.hold({
            batchId: batch.id,
            amount: batch.total,
            note: lifecycle.batchHoldNote(batch.id),
          });
        }
        return batches.get(batch.id) as BatchRecord;
      }),

    ingestRows: (batchId, rows, ingested) =>
      run(() => {
        const unreadable = batches.enqueue(batchId, rows);
        const held = ledger.heldFor(batchId);
        if (unreadable > 0 && held > 0)
          ledger.release({ batchId, amount: Math.min(unreadable, held) });
        batches.markIngested(batchId, ingested, false);
      }),

    completeIngest: (batchId, ingested) =>
      run(() => {
        const current = batches.get(batchId);
        if (current && ingested < current.total) {
          // The source turned out shorter than counted at upload: give back the extra holds
          // (none left once the batch was cancelled or stopped while the reader ran).
          const extra = Math.min(current.total - ingested, ledger.heldFor(batchId));
          if (extra > 0) ledger.release({ batchId, amount: extra });
          batches.update(batchId, { total: ingested });
        }
        batches.markIngested(batchId, ingested, true);
      }),

    // Batch rows finish many times a second: their commits are synced off the API thread.
    commitRows: (context, outcomes) =>
      walSync.commit(() =>
        outcomes.reduce((changed, o) => changed + (commitOne(context, o) ? 1 : 0), 0),
      ),

    recordRowOutcomes: (batchId, finished, window) =>
      run(() => {
        const before = store.db
          .prepare('SELECT recent, consecutive FROM batch_breakers WHERE batch_id = ?')
          .get(batchId) as { recent: string; consecutive: number } | undefined;
        const memory = before
          ? { recent: before.recent, consecutiveFailures: before.consecutive }
          : EMPTY_BREAKER_MEMORY;
        const after = rememberOutcomes(memory, finished, window);
        store.db
          .prepare(
            `INSERT INTO batch_breakers (batch_id, recent, consecutive) VALUES (?, ?, ?)
             ON CONFLICT (batch_id) DO UPDATE SET recent = excluded.recent,
               consecutive = excluded.consecutive`,
          )
          .run(batchId, after.recent, after.consecutiveFailures);
        return memory;
      }),

    finishBatch: (command) =>
      run(() => {
        const { batchId } = command;
        const batch = batches.get(batchId);
        if (!batch || batch.status !== 'running') return batch;
        const ending = lifecycle.finishedFields(
          command,
          batches.counts(batchId),
          new Date().toISOString(),
        );
        if (!ending) return batch;
        const held = ledger.heldFor(batchId);
        if (held > 0) ledger.release({ batchId, amount: held });
        batches.update(batchId, ending);
        return batches.get(batchId);
      }),

    cancelBatch: (batchId) =>
      run(() => {
        const current = batches.get(batchId);
        if (!current || lifecycle.isTerminalStatus(current.status)) return current;
        batches.cancelPending(batchId);
        const held = ledger.heldFor(batchId);
        if (held > 0) ledger.release({ batchId, amount: held, note: 'Cancelled' });
        batches.update(batchId, { status: 'cancelled', finishedAt: new Date().toISOString() });
        return batches.get(batchId);
      }),

    replayBatch: (batchId) =>
      run(() => {
        const batch = lifecycle.replayable(batchId, batches.get(batchId));
        const toRender = lifecycle.replayRowCount(batch, batches.counts(batchId));
        ledger.hold({ batchId, amount: toRender, note: lifecycle.replayHoldNote(batchId) });
        batches.requeueForReplay(batchId);
        // A replay starts with a breaker that remembers nothing (the cause was fixed).
        store.db.prepare('DELETE FROM batch_breakers WHERE batch_id = ?').run(batchId);
        batches.update(batchId, lifecycle.REPLAYED_FIELDS);
        return batches.get(batchId) as BatchRecord;
      }),

    commitSingleRender: (commit) =>
      run(() => {
        const after = ledger.debitRender({
          renderId: commit.renderId,
          amount: 1,
          apiKeyId: commit.apiKeyId,
        });
        store.renders.insert(singleRenderRecord(commit));
        const completion = idempotencyCompletion(commit);
        if (completion) store.idempotency.complete(completion);
        return { balance: after.balance };
      }),

    initialiseAccount: (openingCredits) =>
      Promise.resolve(initialiseAccount(store, { openingCredits })),
  };
}
