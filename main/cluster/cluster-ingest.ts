import { ingestSourceRows, type SourceRow } from '../batch/source-records.js';
import { describeRowError } from '../batch/render-batch-row.js';
import type { CoreData } from '../data/core-data.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import { CHUNK_LOCK_MS } from './chunk-queue.js';
import type { ClusterScheduler } from './cluster-scheduler.js';
import type { Coordination } from './coordination.js';

/**
 * A reader holds its batch for two chunk locks and renews the hold four times as often; once it
 * runs out (the node died), another API node continues from the last stored row.
 */
export const INGEST_LEASE_MS = 2 * CHUNK_LOCK_MS;
const RENEW_MS = CHUNK_LOCK_MS / 2;

/**
 * Reads an uploaded spreadsheet into PostgreSQL on the API node that accepted the batch, and
 * queues chunks as their rows arrive, so workers start before the file is read to its end. The
 * reader holds a lease: if its node dies, the leader has another node continue from the last
 * stored row (rows already stored are skipped, never read twice).
 */
export class ClusterIngest {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      data: CoreData;
      coordination: Coordination;
      scheduler: ClusterScheduler;
      openRows: (batch: BatchRecord) => Promise<AsyncIterable<SourceRow>>;
      nodeId: string;
      log: (message: string, detail?: unknown) => void;
    },
  ) {}

  /** Starts (or joins) reading this batch's source here, unless another node holds it. */
  run(batchId: string): Promise<void> {
    let work = this.running.get(batchId);
    if (!work) {
      work = this.read(batchId)
        .catch((error: unknown) => this.failed(batchId, error))
        .finally(() => this.running.delete(batchId));
      this.running.set(batchId, work);
    }
    return work;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private async read(batchId: string): Promise<void> {
    const { data, coordination, scheduler, nodeId } = this.deps;
    if (!(await coordination.takeIngestLease(batchId, nodeId, INGEST_LEASE_MS))) return;
    const renew = setInterval(() => {
      void coordination.takeIngestLease(batchId, nodeId, INGEST_LEASE_MS).catch(() => undefined);
    }, RENEW_MS);
    try {
      const batch = await data.batches.get(batchId);
      if (!batch || batch.ingestComplete || !['queued', 'running'].includes(batch.status)) return;
      await ingestSourceRows(data, batch, await this.deps.openRows(batch), async () => {
        await scheduler.dispatch(batch.id);
      });
      await scheduler.dispatch(batch.id);
      await scheduler.finishIfDone(batch.id);
    } finally {
      clearInterval(renew);
      await coordination.releaseIngestLease(batchId, nodeId).catch(() => undefined);
    }
  }

  /** A source that cannot be read degrades the batch, as in embedded mode. */
  private async failed(batchId: string, error: unknown): Promise<void> {
    this.deps.log(`batch ${batchId}: reading its source failed`, error);
    await this.deps.data.commands
      .finishBatch({
        batchId,
        stopReason: null,
        ingestError: describeRowError(error),
        pausing: false,
      })
      .catch(() => undefined);
  }
}
