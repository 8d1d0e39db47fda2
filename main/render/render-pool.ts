import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PostedRenderJob, RenderJob, RenderResult } from './render-protocol.js';
import { shareTemplate } from './shared-templates.js';

/**
 * Two lanes over one piscina pool. Single renders (`interactive`) always go first; batch rows
 * take turns between batches so several batches share the pool fairly. Only as many tasks as
 * two per thread are handed to piscina, so a single render waits for at most two in-flight rows
 * per thread, never for a whole batch queued ahead of it.
 */

export type Lane = 'interactive' | 'batch';

export interface RenderPoolOptions {
  threads?: number;
  /** Overridable for tests; defaults to render-worker-entry.mjs beside this file. */
  workerFile?: string;
}

interface QueuedTask {
  job: RenderJob;
  resolve: (result: RenderResult) => void;
  reject: (error: unknown) => void;
}

export interface RenderPool {
  readonly threads: number;
  run(job: RenderJob, options?: { lane?: Lane; group?: string }): Promise<RenderResult>;
  /** Tasks waiting in each lane (not yet handed to a thread). */
  queued(): { interactive: number; batch: number };
  close(): Promise<void>;
}

/**
 * Jobs handed to each thread at once. With two, a worker finishing a job finds the next one
 * already waiting instead of idling until the main thread (busy with HTTP, or a ledger commit's
 * fsync) hands it one; JPEG and WebP encode on libuv's threads meanwhile, so one worker can use
 * more than one core, and it is done only when the pool owns every core. A single render waits
 * behind at most this many rows per thread.
 */
export function tasksPerThread(threads: number): number {
  return threads >= os.availableParallelism() ? 2 : 1;
}

export function defaultThreadCount(): number {
  return Math.max(1, os.availableParallelism());
}

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const threads = Math.max(1, options.threads ?? defaultThreadCount());
  const workerFile =
    options.workerFile ?? fileURLToPath(new URL('./render-worker-entry.mjs', import.meta.url));
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: tasksPerThread(threads),
    idleTimeout: 60_000,
    // The entry registers its own loader; inherited loader flags would only slow thread start.
    execArgv: [],
    env: { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '4' },
  });

  const depth = tasksPerThread(threads);
  const interactive: QueuedTask[] = [];
  // Batch lane: one queue per group (batch id). The group served least (then least recently) goes
  // next; a newly arrived group starts level with the others instead of catching up in a burst.
  const batchGroups = new Map<
    string,
    { tasks: QueuedTask[]; served: number; lastServed: number }
  >();
  let tick = 0;
  let inFlight = 0;
  let closed = false;

  function nextTask(): QueuedTask | undefined {
    const urgent = interactive.shift();
    if (urgent) return urgent;
    let best: { tasks: QueuedTask[]; served: number; lastServed: number } | undefined;
    for (const group of batchGroups.values()) {
      if (group.tasks.length === 0) continue;
      if (
        !best ||
        group.served < best.served ||
        (group.served === best.served && group.lastServed < best.lastServed)
      ) {
        best = group;
      }
    }
    if (!best) return undefined;
    best.served += 1;
    best.lastServed = ++tick;
    return best.tasks.shift();
  }

  function pump(): void {
    while (inFlight < threads * depth) {
      const task = nextTask();
      if (!task) return;
      inFlight += 1;
      let posted: PostedRenderJob;
      try {
        posted = { ...task.job, template: shareTemplate(task.job.template) };
      } catch (error) {
        inFlight -= 1;
        task.reject(error);
        continue;
      }
      piscina
        .run(posted)
        .then(
          (result: RenderResult) => task.resolve(result),
          (error: unknown) => task.reject(error),
        )
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
  }

  return {
    threads,
    run(job, { lane = 'interactive', group = 'default' } = {}) {
      if (closed) return Promise.reject(new Error('The render pool is closed.'));
      return new Promise<RenderResult>((resolve, reject) => {
        const task = { job, resolve, reject };
        if (lane === 'interactive') interactive.push(task);
        else {
          const existing = batchGroups.get(group);
          if (existing) existing.tasks.push(task);
          else {
            let level = Infinity;
            for (const [name, other] of batchGroups) {
              // Idle groups keep their history briefly so a refilled queue does not jump ahead.
              if (other.tasks.length === 0 && batchGroups.size > 64) batchGroups.delete(name);
              else if (other.tasks.length > 0) level = Math.min(level, other.served);
            }
            batchGroups.set(group, {
              tasks: [task],
              served: level === Infinity ? 0 : level,
              lastServed: 0,
            });
          }
        }
        pump();
      });
    },
    queued() {
      let batch = 0;
      for (const group of batchGroups.values()) batch += group.tasks.length;
      return { interactive: interactive.length, batch };
    },
    async close() {
      closed = true;
      const error = new Error('The render pool was closed.');
      for (const task of interactive.splice(0)) task.reject(error);
      for (const group of batchGroups.values())
        for (const task of group.tasks.splice(0)) task.reject(error);
      batchGroups.clear();
      await piscina.destroy();
    },
  };
}
