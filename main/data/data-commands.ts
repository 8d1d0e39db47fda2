import type { OutputFormat } from '../../shared/api-schemas.js';
import type { SourceRecord } from '../batch/batch-queue.js';
import type { BatchRecord, NewBatch } from './types/batch-record.js';

/**
 * The writes that must commit together, one transaction each, on either store (SQLite in
 * embedded mode, PostgreSQL in cluster mode). Each is named after what it means for the user,
 * not after the tables it touches; the guards that make them safe to repeat (a row already
 * succeeded is not charged again) live inside them.
 */

export interface NewBatchCommand {
  batch: NewBatch;
  /** Inline json-array records: stored with the batch, which is then fully ingested. */
  records?: SourceRecord[];
  /** The upload this batch reads: kept as long as the batch needs it. */
  uploadRef?: string;
}

/** What happened to one row of a batch; committed in groups. */
export type RowOutcome =
  | {
      ok: true;
      rowIndex: number;
      renderId: string;
      outputKey: string;
      bytes: number;
    }
  | {
      ok: false;
      rowIndex: number;
      /** What the batch's rows show; it may quote the row's values. */
      error: string;
      /** What a webhook may carry (no values): the error's code and the fields at fault. */
      errorCode: string;
      fields: string[];
    };

export interface RowOutcomeContext {
  batchId: string;
  templateId: string;
  ratio: string;
  format: OutputFormat;
  apiKeyId: string | null;
}

/**
 * A batch's circuit-breaker memory: its last row outcomes in commit order ('1' succeeded, '0'
 * failed, newest last; at most the breaker's window) and how many rows failed in a row.
 */
export interface BreakerMemory {
  recent: string;
  consecutiveFailures: number;
}

export interface FinishBatchCommand {
  batchId: string;
  /** Why the runner stopped early (circuit breaker, disk full); null when it ran out of rows. */
  stopReason: string | null;
  /** Reading the source failed: the batch is degraded with this message. */
  ingestError: string | null;
  /** The process is stopping: leave a running batch as it is, to resume later. */
  pausing: boolean;
}

export interface SingleRenderCommit {
  renderId: string;
  apiKeyId: string;
  templateId: string;
  ratio: string;
  format: OutputFormat;
  bytes: number;
  /** Present for a request with an Idempotency-Key: its replay record commits with the debit. */
  idempotency?: { key: string; contentType: string; outputRef: string; now: Date };
}

export interface DataCommands {
  /**
   * Creates a batch, stores inline records, keeps its upload, and holds one credit per row;
   * without enough credits the batch is created already failed (`insufficient-credits`).
   */
  createBatch(command: NewBatchCommand): Promise<BatchRecord>;
  /** Stores ingested rows; rows the source could not read fail at once and give back their hold. */
  ingestRows(batchId: string, rows: SourceRecord[], ingested: number): Promise<void>;
  /** The source is read to its end: a source shorter than counted gives back the extra holds. */
  completeIngest(batchId: string, ingested: number): Promise<void>;
  /**
   * Commits finished rows: a success turns the row's hold into a debit and records the render;
   * a failure releases the hold. Guarded by row status, so a row committed twice (at-least-once
   * delivery) changes nothing the second time. Returns how many rows changed.
   */
  commitRows(context: RowOutcomeContext, outcomes: RowOutcome[]): Promise<number>;
  /**
   * Adds a committed group's outcomes (`finished`: '1'/'0' in the order they finished) to the
   * batch's breaker memory, kept with the batch so that every process drawing it, and the batch
   * after a restart, remember the same rows. Returns the memory as it was just before them.
   */
  recordRowOutcomes(batchId: string, finished: string, window: number): Promise<BreakerMemory>;
  /** Ends a running batch (succeeded, partial, failed or degraded) and releases what it holds. */
  finishBatch(command: FinishBatchCommand): Promise<BatchRecord | null>;
  /** Cancels pending rows and releases the holds; a terminal batch is left as it is. */
  cancelBatch(batchId: string): Promise<BatchRecord | null>;
  /** Re-queues failed, cancelled and unprocessed rows with a new hold; throws nothing-to-replay. */
  replayBatch(batchId: string): Promise<BatchRecord>;
  /** Debits a single render and records it (and its idempotency record) in one transaction. */
  commitSingleRender(commit: SingleRenderCommit): Promise<{ balance: number }>;
  /** Grants the opening balance to a new account, once ever. */
  initialiseAccount(openingCredits: number): Promise<{ granted: number }>;
}
