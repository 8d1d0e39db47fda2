import { chosenBatchRows } from '../batch/batch-targets.js';
import type { BatchWork } from '../batch/batch-work.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { ClusterIngest } from './cluster-ingest.js';
import type { ClusterScheduler } from './cluster-scheduler.js';
import type { Coordination } from './coordination.js';

/**
 * Cluster mode's answer to "draw this batch": chunk jobs on the queue, the source read here;
 * "stop" is nothing to do here (workers see the batch's status change within half a second);
 * "removed" leaves a tombstone for the leader to sweep its outputs after the grace period.
 */
export class ClusterBatchWork implements BatchWork {
  constructor(
    private readonly scheduler: ClusterScheduler,
    private readonly ingest: ClusterIngest,
    private readonly coordination: Coordination,
  ) {}

  async start(batch: BatchRecord): Promise<void> {
    // Some rows of a sheet keep their own indexes (each once per size): the chunks span those,
    // not 0..total.
    await this.scheduler.batchCreated(batch.id, batch.total, chosenBatchRows(batch));
    if (!batch.ingestComplete) void this.ingest.run(batch.id);
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  removed(batchId: string): Promise<void> {
    return this.coordination.tombstone(batchId);
  }
}
