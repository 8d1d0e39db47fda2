import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { chunkJobId } from './chunk-plan.js';

export const CHUNK_QUEUE = 'render-desk-chunks';

/** The job a worker receives: which rows of which batch, never the rows themselves. */
export interface ChunkJob {
  batchId: string;
  n: number;
  from: number;
  to: number;
  /** The batch's sheets (N-up), drawn by a worker once every row is done; then it finishes. */
  sheets?: true;
}

/**
 * How long a worker may hold a chunk without renewing its lock. A worker that stops (SIGSTOP,
 * a long GC pause, a lost network) loses the chunk after this and another worker renders it;
 * deleted batches' outputs are collected only after a longer grace period (see the leader).
 */
export const CHUNK_LOCK_MS = chunkLockMs(process.env);

/** RENDER_DESK_CHUNK_LOCK_MS shortens the lock for tests of failover (at least 2 s). */
export function chunkLockMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.RENDER_DESK_CHUNK_LOCK_MS);
  return Number.isInteger(value) && value >= 2000 ? value : 30_000;
}

/** Finished jobs are kept a while for operators to inspect, then removed (Redis stays flat). */
const KEEP_COMPLETED = { age: 3600, count: 1000 };
const KEEP_FAILED = { age: 24 * 3600, count: 5000 };

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** The producer side: adds chunk jobs and answers whether a dispatch is still alive. */
export class ChunkQueue {
  private readonly queue: Queue<ChunkJob>;

  constructor(connection: Redis) {
    this.queue = new Queue<ChunkJob>(CHUNK_QUEUE, { connection });
    // A Redis outage is the leader's to reconcile; it must not be an unhandled error.
    this.queue.on('error', () => undefined);
  }

  async add(job: ChunkJob, dispatch: number): Promise<void> {
    await this.queue.add('chunk', job, {
      jobId: chunkJobId(job.batchId, job.n, dispatch),
      // Redelivery after a lost lock is BullMQ's; a job that keeps failing is the leader's.
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
  }

  /**
   * Queues the drawing of a sheet batch's sheets. The id is fixed by the succeeded rows it will
   * draw: the leader asking again while it runs adds nothing; a replay that adds rows draws anew.
   */
  async addSheets(batchId: string, succeeded: number): Promise<void> {
    await this.queue.add(
      'sheets',
      { batchId, n: 0, from: 0, to: 0, sheets: true },
      {
        jobId: `${batchId}-sheets-${succeeded}`,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    );
  }

  /** True while the dispatch waits, runs or is delayed for a retry. */
  async isLive(batchId: string, n: number, dispatch: number): Promise<boolean> {
    const job = await this.queue.getJob(chunkJobId(batchId, n, dispatch));
    if (!job) return false;
    return LIVE_STATES.has(await job.getState());
  }

  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The consumer side: a BullMQ worker that hands each chunk to `process`. */
export function startChunkWorker(
  connection: Redis,
  options: { concurrency: number; process: (job: ChunkJob, signal: AbortSignal) => Promise<void> },
): Worker<ChunkJob> {
  const worker = new Worker<ChunkJob>(
    CHUNK_QUEUE,
    async (job: Job<ChunkJob>, _token?: string, signal?: AbortSignal) =>
      options.process(job.data, signal ?? new AbortController().signal),
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: CHUNK_LOCK_MS,
      stalledInterval: CHUNK_LOCK_MS,
      // A chunk whose worker died is redelivered; after that the leader re-dispatches it.
      maxStalledCount: 2,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  );
  worker.on('error', () => undefined);
  return worker;
}
