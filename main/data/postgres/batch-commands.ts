import type pg from 'pg';
import { AppError } from '../../../shared/errors.js';
import type { DataCommands } from '../data-commands.js';
import * as lifecycle from '../rules/batch-lifecycle.js';
import type { BatchRecord } from '../types/batch-record.js';
import { insertBatch, markIngested, selectBatch, updateBatch } from './batch-record.js';
import { notifyBatchChanged } from './batch-notify.js';
import { cancelPendingRows, countRows, enqueueRows, requeueRowsForReplay } from './batch-rows.js';
import { heldFor, holdCredits, releaseHeld } from './ledger-writes.js';
import { RowCommitQueue } from './row-commit-queue.js';
import { inTransaction } from './transaction.js';
import { markUploadUsed } from './uploads-repository.js';
import { EMPTY_BREAKER_MEMORY, trailingFailures } from '../rules/breaker-memory.js';

export type BatchCommands = Pick<
  DataCommands,
  | 'createBatch'
  | 'ingestRows'
  | 'completeIngest'
  | 'commitRows'
  | 'finishBatch'
  | 'cancelBatch'
  | 'replayBatch'
  | 'recordRowOutcomes'
>;

/**
 * The batch lifecycle, one transaction per command (commitRows: one statement). Each locks its
 * batch row before anything else of the batch, so commands on one batch from several nodes take
 * turns instead of interleaving, and cannot deadlock each other; the account row, shared by all
 * batches, always comes after the batch's own rows.
 */
export function postgresBatchCommands(pool: pg.Pool): BatchCommands {
  const lockBatch = (client: pg.PoolClient, id: string): Promise<BatchRecord | null> =>
    selectBatch(client, id, true);
  const rowCommits = new RowCommitQueue(pool);

  return {
    createBatch: ({ batch, records, uploadRef }) =>
      inTransaction(pool, async (client) => {
        await insertBatch(client, batch);
        if (records) {
          await enqueueRows(client, batch.id, records);
          await markIngested(client, batch.id, batch.total, true);
        }
        if (uploadRef) await markUploadUsed(client, uploadRef);
        // The hold's balance check is the account UPDATE itself; when it finds too little, only
        // the hold is undone and the batch is kept, rejected (spec §4.3 rule 7: no row renders).
        await client.query('SAVEPOINT hold');
        try {
          await holdCredits(client, batch.id, batch.total, lifecycle.batchHoldNote(batch.id));
          await client.query('RELEASE SAVEPOINT hold');
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'insufficient-credits')) throw error;
          await client.query('ROLLBACK TO SAVEPOINT hold');
          await updateBatch(client, batch.id, lifecycle.rejectedForCredits(batch));
        }
        return (await selectBatch(client, batch.id)) as BatchRecord;
      }),

    ingestRows: (batchId, rows, ingested) =>
      inTransaction(pool, async (client) => {
        await lockBatch(client, batchId);
        const unreadable = await enqueueRows(client, batchId, rows);
        if (unreadable > 0) {
          const held = await heldFor(client, batchId, true);
          if (held > 0) await releaseHeld(client, batchId, Math.min(unreadable, held), null);
        }
        await markIngested(client, batchId, ingested, false);
      }),

    completeIngest: (batchId, ingested) =>
      inTransaction(pool, async (client) => {
        const current = await lockBatch(client, batchId);
        if (current && ingested < current.total) {
          // The source turned out shorter than counted at upload: give back the extra holds.
          const extra = Math.min(current.total - ingested, await heldFor(client, batchId, true));
          if (extra > 0) await releaseHeld(client, batchId, extra, null);
          await updateBatch(client, batchId, { total: ingested });
        }
        await markIngested(client, batchId, ingested, true);
      }),

    commitRows: (context, outcomes) => rowCommits.commit(context, outcomes),

    // The memory before the group, read under the row's lock, and the memory after it written
    // (workers of one batch take turns on its row, in commit order). The row is made first: with
    // no row to lock, two first writers would both read an empty memory.
    recordRowOutcomes: async (batchId, finished, window) => {
      await pool.query(
        `INSERT INTO batch_breakers (batch_id, recent, consecutive) VALUES ($1, '', 0)
         ON CONFLICT (batch_id) DO NOTHING`,
        [batchId],
      );
      const { rows } = await pool.query<{ recent: string; consecutive: number }>(
        `WITH before AS (
           SELECT recent, consecutive FROM batch_breakers WHERE batch_id = $1 FOR UPDATE
         ), saved AS (
           INSERT INTO batch_breakers AS b (batch_id, recent, consecutive)
           VALUES ($1, right($2, $4), $3)
           ON CONFLICT (batch_id) DO UPDATE SET
             recent = right(b.recent || $2, $4),
             consecutive = CASE WHEN position('1' IN $2) > 0 THEN $3
                                ELSE b.consecutive + length($2) END
           RETURNING 1
         )
         SELECT before.recent, before.consecutive FROM before, (SELECT count(*) FROM saved) s`,
        [batchId, finished, trailingFailures(finished), window],
      );
      const before = rows[0];
      return before
        ? { recent: before.recent, consecutiveFailures: before.consecutive }
        : EMPTY_BREAKER_MEMORY;
    },

    finishBatch: (command) =>
      inTransaction(pool, async (client) => {
        const { batchId } = command;
        const batch = await lockBatch(client, batchId);
        if (!batch || batch.status !== 'running') return batch;
        const counts = await countRows(client, batchId);
        const ending = lifecycle.finishedFields(command, counts, new Date().toISOString());
        if (!ending) return batch;
        await releaseHeld(client, batchId, undefined, null);
        await updateBatch(client, batchId, ending);
        await notifyBatchChanged(client, batchId);
        return selectBatch(client, batchId);
      }),

    cancelBatch: (batchId) =>
      inTransaction(pool, async (client) => {
        const current = await lockBatch(client, batchId);
        if (!current || lifecycle.isTerminalStatus(current.status)) return current;
        await cancelPendingRows(client, batchId);
        await releaseHeld(client, batchId, undefined, 'Cancelled');
        await updateBatch(client, batchId, {
          status: 'cancelled',
          finishedAt: new Date().toISOString(),
        });
        await notifyBatchChanged(client, batchId);
        return selectBatch(client, batchId);
      }),

    replayBatch: (batchId) =>
      inTransaction(pool, async (client) => {
        const batch = lifecycle.replayable(batchId, await lockBatch(client, batchId));
        const toRender = lifecycle.replayRowCount(batch, await countRows(client, batchId));
        await holdCredits(client, batchId, toRender, lifecycle.replayHoldNote(batchId));
        await requeueRowsForReplay(client, batchId);
        // A replay starts with a breaker that remembers nothing (the cause was fixed).
        await client.query('DELETE FROM batch_breakers WHERE batch_id = $1', [batchId]);
        await updateBatch(client, batchId, lifecycle.REPLAYED_FIELDS);
        await notifyBatchChanged(client, batchId);
        return (await selectBatch(client, batchId)) as BatchRecord;
      }),
  };
}
