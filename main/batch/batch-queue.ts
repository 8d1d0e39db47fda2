/**
 * The seam between the batch runner and where rows live (DESIGN §6a): enqueue, claim with a
 * lease, complete, fail, release expired leases. The SQLite store implements it; a queue engine
 * (BullMQ + Redis) can implement it later so several headless nodes share one batch.
 */

export interface QueuedRow {
  rowIndex: number;
  line: number | null;
  record: Record<string, unknown>;
  attempts: number;
  /** The row's render id, given when it was read; its output and debit carry it. */
  renderId: string;
}

export interface SourceRecord {
  rowIndex: number;
  line: number | null;
  record: Record<string, unknown>;
  error?: string;
  /** The output's name in the bundle. */
  fileName?: string;
}

export interface RowCounts {
  pending: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

export interface BatchRowQueue {
  /**
   * Adds rows; rows already present (a resumed ingest) are left as they are. A row the source
   * could not read arrives with `error` and is stored as failed; returns how many of those were new.
   */
  enqueue(batchId: string, rows: SourceRecord[]): number;
  /** Claims up to `limit` pending rows in rowIndex order with a lease until `leaseUntil` (ms). */
  claim(batchId: string, limit: number, leaseUntil: number): QueuedRow[];
  /** Marks a claimed row succeeded; call inside the transaction that debits it. */
  complete(
    batchId: string,
    rowIndex: number,
    result: { renderId: string; outputKey: string },
  ): boolean;
  /** Marks a claimed row failed with a message a user can act on. */
  fail(batchId: string, rowIndex: number, error: string): boolean;
  /** Running rows whose lease ran out (a crashed worker or process) go back to pending. */
  releaseExpired(now: number, batchId?: string): number;
  counts(batchId: string): RowCounts;
}
