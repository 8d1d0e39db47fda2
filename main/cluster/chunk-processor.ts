import { TERMINAL_STATUSES } from '../../shared/batch-schemas.js';
import type { QueuedRow } from '../batch/batch-queue.js';
import { storeBatchRow } from '../batch/store-batch-row.js';
import { type BatchRowContext } from '../batch/render-batch-row.js';
import { sheetsStopReason } from '../batch/row-failure.js';
import type { CoreData } from '../data/core-data.js';
import type { RowOutcome } from '../data/data-commands.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { RenderService } from '../render/render-service.js';
import type { OutputFormat } from '../render/render-protocol.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { ChunkJob } from './chunk-queue.js';
import type { Coordination } from './coordination.js';
import { contentTypeOf, sheetPartKey } from '../batch/output-address.js';
import { drawBatchSheets } from '../batch/batch-sheets.js';
import { BatchBreaker } from '../batch/batch-breaker.js';
import { RowOutcomes } from '../batch/row-outcomes.js';

export interface ChunkProcessorDeps {
  data: CoreData;
  coordination: Coordination;
  renderer: RenderService;
  objects: ObjectStore;
  /** Builds (or returns the cached) shared context of a batch's rows on this node. */
  rowContext: (batch: BatchRecord) => Promise<BatchRowContext>;
  /** Queues the batch's next chunks (its window moved on) or finishes it when none are left. */
  afterChunk: (batchId: string, allDone: boolean) => Promise<void>;
  /** Rows of one chunk in flight at once on this node (render threads × 2 keeps them busy). */
  rowsInFlight: number;
  log: (message: string, detail?: unknown) => void;
}

/** How often a running chunk looks whether its batch was cancelled or deleted. */
const STATUS_POLL_MS = 500;

/**
 * Renders one chunk job `{ batchId, from, to }`. At least once: the chunk may have been rendered
 * before (a worker died after writing some rows), so only rows not yet succeeded are drawn, each
 * output goes to a key fixed by its row (a repeat writes the same bytes), and the commit is
 * guarded by row status (a row already succeeded is never charged again).
 */
export class ChunkProcessor {
  constructor(private readonly deps: ChunkProcessorDeps) {}

  async process(job: ChunkJob, signal: AbortSignal): Promise<void> {
    if (job.sheets) return this.drawSheets(job.batchId);
    const { data, coordination } = this.deps;
    let batch = await data.batches.get(job.batchId);
    if (!batch || isTerminal(batch) || (await coordination.isDeleted(job.batchId))) {
      // Nothing to do: cancelled, finished or deleted while the job waited.
      if (batch)
        await this.deps.afterChunk(job.batchId, await coordination.chunkDone(job.batchId, job.n));
      return;
    }
    if (batch.status === 'queued') {
      await data.batches.update(batch.id, {
        status: 'running',
        startedAt: batch.startedAt ?? new Date().toISOString(),
      });
      batch = { ...batch, status: 'running' };
    }
    const rows = await data.batches.pendingInRange(job.batchId, job.from, job.to);
    let stopped: Awaited<ReturnType<ChunkProcessor['renderRows']>>;
    try {
      stopped = await this.renderRows(batch, rows, signal);
    } catch (error) {
      // Deleted while its rows were drawn: their commit found no batch. There is nothing left to
      // retry (the leader sweeps what was stored), so the job ends here instead of failing.
      if (await this.deleted(job.batchId)) return;
      throw error;
    }
    if (stopped === 'aborted') throw new Error(`chunk ${job.batchId}-c${job.n} was interrupted`);
    const allDone = await coordination.chunkDone(job.batchId, job.n);
    await this.deps.afterChunk(job.batchId, allDone);
  }

  /** False when that cannot be told (PostgreSQL unreachable): the job then fails and is retried. */
  private async deleted(batchId: string): Promise<boolean> {
    const { data, coordination } = this.deps;
    try {
      return (await data.batches.get(batchId)) === null || (await coordination.isDeleted(batchId));
    } catch {
      return false;
    }
  }

  /**
   * A sheet batch's last step: its sheets drawn from the succeeded rows into the object store,
   * part by part, then the batch finished (degraded, saying why, when the sheets failed).
   */
  private async drawSheets(batchId: string): Promise<void> {
    const { data, coordination, renderer, objects } = this.deps;
    const batch = await data.batches.get(batchId);
    if (!batch || isTerminal(batch) || (await coordination.isDeleted(batchId))) return;
    let stopReason: string | null = null;
    try {
      await drawBatchSheets(
        {
          data,
          renderer,
          parallel: Math.max(1, Math.floor(this.deps.rowsInFlight / 2)),
          writePart: (part, bytes) =>
            objects.put(sheetPartKey(batchId, part), bytes, {
              contentType: contentTypeOf('pdf'),
            }),
        },
        await this.deps.rowContext(batch),
      );
    } catch (error) {
      stopReason = sheetsStopReason(error);
      this.deps.log(`batch ${batchId}: the sheets could not be drawn`, error);
    }
    await data.commands.finishBatch({ batchId, stopReason, ingestError: null, pausing: false });
  }

  /** Renders and commits the rows; says why it stopped early, if it did. */
  private async renderRows(
    batch: BatchRecord,
    rows: QueuedRow[],
    signal: AbortSignal,
  ): Promise<'done' | 'cancelled' | 'aborted' | 'degraded'> {
    if (rows.length === 0) return 'done';
    const { data, renderer, objects } = this.deps;
    const context = await this.deps.rowContext(batch);
    const format = batch.format as OutputFormat;
    const commitContext = {
      batchId: batch.id,
      templateId: batch.templateId,
      ratio: batch.target,
      format,
      apiKeyId: batch.apiKeyId,
    };
    // The batch's breaker, kept with it: rows of every chunk and every worker count together.
    const breaker = new BatchBreaker(data, batch.id);
    const live = new BatchLiveness(data, batch.id);
    // A failed commit (PostgreSQL restarting) stops the chunk and fails the job, so BullMQ
    // retries it: its uncommitted rows are still pending.
    const commits = new RowOutcomes(data, commitContext, data.commitGroup, (group) =>
      breaker.committed(group),
    );
    const record = (outcome: RowOutcome): void => {
      breaker.finished(outcome);
      commits.add(outcome);
    };

    let next = 0;
    let stop: 'cancelled' | 'aborted' | 'degraded' | null = null;
    const lane = async (): Promise<void> => {
      while (next < rows.length && !stop) {
        if (signal.aborted || commits.failure) stop = 'aborted';
        else if (breaker.tripped) stop = 'degraded';
        else if (!(await live.stillRunning())) stop = 'cancelled';
        // Other lanes took rows while this one waited for the status check.
        if (stop || next >= rows.length) return;
        const row = rows[next++] as QueuedRow;
        const stored = await storeBatchRow({ renderer, objects }, context, row);
        if ('storeFailed' in stored) {
          // The store failed, not the row: it stays pending and the chunk is retried.
          stop = 'aborted';
          this.deps.log(
            `chunk of ${batch.id}: row ${row.rowIndex} could not be stored`,
            stored.storeFailed,
          );
          return;
        }
        record(stored.outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.deps.rowsInFlight) }, lane));
    await commits.flush();
    if (commits.failure) throw commits.failure.error;
    if (stop === 'degraded' || breaker.tripped) {
      await data.commands.finishBatch({
        batchId: batch.id,
        stopReason: breaker.tripped ?? 'too many rows failed',
        ingestError: null,
        pausing: false,
      });
      return 'degraded';
    }
    return stop ?? 'done';
  }
}

function isTerminal(batch: BatchRecord): boolean {
  return TERMINAL_STATUSES.includes(batch.status);
}

/** Looks at the batch's status at most every STATUS_POLL_MS: a cancel stops the chunk soon. */
class BatchLiveness {
  private checkedAt = 0;
  private running = true;

  constructor(
    private readonly data: CoreData,
    private readonly batchId: string,
  ) {}

  async stillRunning(): Promise<boolean> {
    if (!this.running || Date.now() - this.checkedAt < STATUS_POLL_MS) return this.running;
    this.checkedAt = Date.now();
    const batch = await this.data.batches.get(this.batchId);
    this.running = batch !== null && !isTerminal(batch);
    return this.running;
  }
}
