import type { BatchRecord } from '../data/types/batch-record.js';

/**
 * Where a batch's rows get drawn: the in-process runner (embedded mode) or chunk jobs on the
 * cluster's queue. The batch service decides what happens to a batch; this decides where.
 */
export interface BatchWork {
  /** A batch was accepted or replayed: start drawing its rows (soon, not before returning). */
  start(batch: BatchRecord): Promise<void>;
  /** Stop drawing rows of this batch here; resolves once none of its rows is in flight here. */
  stop(batchId: string): Promise<void>;
  /** The batch is gone: remove its outputs (at once, or after a grace period in a cluster). */
  removed(batchId: string): Promise<void>;
}
