import type { CoreData } from '../data/core-data.js';
import type { ChunkQueue } from './chunk-queue.js';
import type { ChunkDispatch, Coordination } from './coordination.js';

/**
 * Moves a batch's work onto the queue: cuts it into chunks when it is created, adds chunks as
 * the window of queued chunks moves on, and finishes the batch when its last chunk is done.
 * Every step is safe to repeat (chunk state lives in PostgreSQL, job ids are fixed), which is
 * what lets the leader call the same steps to repair what a crash left half done.
 */
export class ClusterScheduler {
  constructor(
    private readonly data: CoreData,
    private readonly coordination: Coordination,
    private readonly queue: ChunkQueue,
    private readonly log: (message: string, detail?: unknown) => void,
  ) {}

  /** A new (or replayed) batch: plan its chunks once, then queue the first window. */
  async batchCreated(
    batchId: string,
    totalRows: number,
    rowIndexes: readonly number[] | null = null,
  ): Promise<void> {
    await this.coordination.planBatch(batchId, totalRows, rowIndexes);
    await this.coordination.reopenChunksWithPendingRows(batchId);
    await this.dispatch(batchId);
  }

  /** Queues the chunks the batch's window allows now. */
  async dispatch(batchId: string): Promise<number> {
    const chunks = await this.coordination.takeChunks(batchId);
    for (const chunk of chunks) await this.add(chunk);
    return chunks.length;
  }

  async add(chunk: ChunkDispatch): Promise<void> {
    try {
      await this.queue.add(
        { batchId: chunk.batchId, n: chunk.n, from: chunk.from, to: chunk.to },
        chunk.dispatch,
      );
    } catch (error) {
      // Marked queued in PostgreSQL but not in Redis: the leader finds it and adds it again.
      this.log(
        `chunk ${chunk.batchId}-c${chunk.n} could not be queued; the leader will retry`,
        error,
      );
    }
  }

  /** After a chunk: queue the next ones, or finish the batch when it was the last. */
  async afterChunk(batchId: string, allDone: boolean): Promise<void> {
    if (allDone) {
      await this.finishIfDone(batchId);
      return;
    }
    await this.dispatch(batchId);
  }

  /** Finishes a batch read to its end with no open chunk (succeeded, partial or failed). */
  async finishIfDone(batchId: string): Promise<void> {
    const batch = await this.data.batches.get(batchId);
    if (!batch || !batch.ingestComplete) return;
    if ((await this.coordination.reopenChunksWithPendingRows(batchId)) > 0) {
      await this.dispatch(batchId);
      return;
    }
    if (batch.sheetOptions) {
      // A worker draws the sheets from the succeeded rows, then finishes the batch.
      if (batch.status === 'queued' || batch.status === 'running')
        await this.queue.addSheets(batchId, batch.succeeded);
      return;
    }
    await this.data.commands.finishBatch({
      batchId,
      stopReason: null,
      ingestError: null,
      pausing: false,
    });
  }
}
