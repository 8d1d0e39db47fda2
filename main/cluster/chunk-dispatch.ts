import type { BatchDispatch, DispatchDeps } from '../core/core-parts.js';
import type { CoreData } from '../data/core-data.js';
import { ClusterBatchWork } from './cluster-batch-work.js';
import { ClusterIngest, INGEST_LEASE_MS } from './cluster-ingest.js';
import type { ClusterScheduler } from './cluster-scheduler.js';
import type { Coordination } from './coordination.js';

/**
 * A cluster API node's batch dispatch: chunk jobs on the queue for the workers, and the batch's
 * source read on this node (`ClusterIngest`) as its rows arrive. Made once the node's uploads
 * exist (`dispatch`); the leader asks it to continue a source whose reader died.
 */
export class ChunkDispatch {
  private ingest: ClusterIngest | undefined;

  constructor(
    private readonly deps: {
      data: CoreData;
      coordination: Coordination;
      scheduler: ClusterScheduler;
      nodeId: string;
      log: (message: string, detail?: unknown) => void;
    },
  ) {}

  /** The dispatch of this node's core, reading sources through its uploads. */
  readonly dispatch = ({ uploads }: DispatchDeps): BatchDispatch => {
    const { coordination, scheduler } = this.deps;
    const ingest = new ClusterIngest({
      data: this.deps.data,
      coordination,
      scheduler,
      openRows: (batch) => uploads.openRows(batch),
      nodeId: this.deps.nodeId,
      log: this.deps.log,
    });
    this.ingest = ingest;
    const work = new ClusterBatchWork(scheduler, ingest, coordination);
    // Any API node picks up a source whose reader died, not only the leader (which may be a
    // worker-only node that does not read sources).
    const adopt = setInterval(() => {
      coordination.orphanedIngests().then(
        (ids) => ids.forEach((id) => void ingest.run(id)),
        () => undefined,
      );
    }, INGEST_LEASE_MS / 2);
    adopt.unref();
    return {
      start: (batch) => work.start(batch),
      stop: () => work.stop(),
      removed: (batchId) => work.removed(batchId),
      close: async () => {
        clearInterval(adopt);
        await ingest.close();
      },
    };
  };

  /** Continues reading a batch's source here; nothing on a node without the API role. */
  async resumeIngest(batchId: string): Promise<void> {
    await this.ingest?.run(batchId);
  }
}
