import { AppError } from '../../../shared/errors.js';
import { TERMINAL_STATUSES } from '../../../shared/batch-schemas.js';
import type { RowCounts } from '../../batch/batch-queue.js';
import type { FinishBatchCommand } from '../data-commands.js';
import type { BatchFields, BatchRecord, NewBatch } from '../types/batch-record.js';

/**
 * How a batch moves from one status to the next, the same in both stores. The stores lock,
 * count and write; what the counts mean is decided here.
 */

/** Whether a batch has ended: it can be replayed, and cancelling leaves it as it is. */
export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** The ledger note of a new batch's hold. */
export function batchHoldNote(batchId: string): string {
  return `Batch ${batchId}`;
}

/** A batch created without the credits for its rows: no row renders, and the batch says why. */
export function rejectedForCredits(batch: NewBatch): BatchFields {
  return { status: 'failed', rejectedReason: 'insufficient-credits', finishedAt: batch.createdAt };
}

/**
 * How a running batch ends when its runner stops, given its rows' counts: degraded when it
 * stopped early or its source could not be read; succeeded, partial or failed once no row is
 * left. Null leaves it running: rows are left, or the process is only pausing (it resumes later).
 */
export function finishedFields(
  command: FinishBatchCommand,
  counts: RowCounts,
  now: string,
): BatchFields | null {
  const { stopReason, ingestError, pausing } = command;
  if (stopReason || ingestError) {
    return {
      status: 'degraded',
      stoppedReason: stopReason
        ? `Stopped early because ${stopReason}. Fix the cause and replay the batch.`
        : `Reading the source failed: ${ingestError}`,
      finishedAt: now,
    };
  }
  if (pausing || counts.pending + counts.running > 0) return null;
  const status = counts.failed === 0 ? 'succeeded' : counts.succeeded === 0 ? 'failed' : 'partial';
  return { status, finishedAt: now };
}

/** The batch to replay: 404 when there is none, 409 batch-not-terminal while it still runs. */
export function replayable(batchId: string, batch: BatchRecord | null): BatchRecord {
  if (!batch) throw new AppError('not-found', `No batch "${batchId}".`);
  if (!isTerminalStatus(batch.status)) {
    throw new AppError(
      'batch-not-terminal',
      `Batch ${batchId} is still ${batch.status}; replay it once it has finished.`,
    );
  }
  return batch;
}

/**
 * How many rows a replay renders, one credit held for each: the failed, cancelled and pending
 * rows, and those never read from the source. 409 nothing-to-replay when every row succeeded.
 */
export function replayRowCount(batch: BatchRecord, counts: RowCounts): number {
  const notIngested = batch.ingestComplete ? 0 : Math.max(0, batch.total - batch.ingested);
  const toRender = counts.pending + counts.failed + counts.cancelled + notIngested;
  if (toRender === 0) {
    throw new AppError(
      'nothing-to-replay',
      `Every row of batch ${batch.id} succeeded; there is nothing to replay.`,
    );
  }
  return toRender;
}

/** The ledger note of a replay's hold. */
export function replayHoldNote(batchId: string): string {
  return `Replay of batch ${batchId}`;
}

/** A replayed batch is queued again, as if new. */
export const REPLAYED_FIELDS: BatchFields = {
  status: 'queued',
  finishedAt: null,
  stoppedReason: null,
  rejectedReason: null,
};
