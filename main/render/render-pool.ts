import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { AppError } from '../../shared/errors.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../config.js';
import { threadEntry } from '../core/thread-entry.js';
import {
  isRenderStarted,
  isRenderThreadLoaded,
  type PostedRenderJob,
  type RenderJob,
  type RenderResult,
} from './render-protocol.js';
import { shareTemplate } from './shared-templates.js';

/**
 * Two lanes over one piscina pool. Single renders (`interactive`) always go first; batch rows
 * take turns between batches so several batches share the pool fairly. Only as many tasks as
 * two per thread are handed to piscina, so a single render waits for at most two in-flight rows
 * per thread, never for a whole batch queued ahead of it.
 *
 * Every job has a deadline from the moment its thread starts it. A job past it fails with 422
 * `render-timeout` and its thread is terminated (a runaway layout never yields, so nothing short
 * of that frees the thread); piscina starts a replacement. Jobs that lose their thread through
 * no fault of their own (another job's deadline, a thread that failed to start) run again once.
 */

export type Lane = 'interactive' | 'batch';

export interface RenderPoolOptions {
  threads?: number;
  /** Overridable for tests; defaults to render-worker-entry.mjs beside this file (threadEntry). */
  workerFile?: string;
  /** How long a thread may work on one job. */
  deadlineMs?: number;
  /** Where thread failures are reported (they are not tied to one request). */
  log?: (message: string) => void;
}

interface QueuedTask {
  job: RenderJob;
  lane: Lane;
  group: string;
  /** Runs so far: a job that lost its thread through no fault of its own runs again, once. */
  attempts: number;
  resolve: (result: RenderResult) => void;
  reject: (error: unknown) => void;
}

/** A task handed to piscina, until piscina settles it or its deadline passes. */
interface Dispatched {
  id: number;
  task: QueuedTask;
  threadId: number | null;
  timer: NodeJS.Timeout | null;
  settled: boolean;
}

export interface RenderPool {
  readonly threads: number;
  readonly deadlineMs: number;
  run(job: RenderJob, options?: { lane?: Lane; group?: string }): Promise<RenderResult>;
  /** Tasks waiting in each lane (not yet handed to a thread). */
  queued(): { interactive: number; batch: number };
  close(): Promise<void>;
}

const MAX_ATTEMPTS = 2;

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

export function renderTimeoutError(deadlineMs: number): AppError {
  const seconds = Math.round(deadlineMs / 100) / 10;
  return new AppError(
    'render-timeout',
    `The render took longer than ${seconds} s and was stopped. Shorten long texts or simplify the template; the deadline is set with --render-timeout (RENDER_DESK_RENDER_TIMEOUT).`,
  );
}

/**
 * A render asked for, or still waiting, when the pool closes: the core is stopping. A client
 * retries it (503 with Retry-After), as it would a busy service, once the core runs again.
 */
export function stoppingError(): AppError {
  return new AppError(
    'service-busy',
    'Render Desk is stopping, so this render was not drawn. Retry it once Render Desk is running again.',
    { headers: { 'Retry-After': '5' } },
  );
}

/** How long close() waits for threads that are still loading before it stops them anyway. */
const LOAD_WAIT_MS = 20_000;

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const threads = Math.max(1, options.threads ?? defaultThreadCount());
  const deadlineMs = options.deadlineMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const log = options.log ?? ((message: string) => console.error(message));
  const workerFile =
    options.workerFile ??
    threadEntry(fileURLToPath(new URL('./render-worker-entry.mjs', import.meta.url)));
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
  const dispatched = new Map<number, Dispatched>();
  let nextTaskId = 1;
  let tick = 0;
  let inFlight = 0;
  let closed = false;

  // Threads still loading their modules: close() waits for them (render-protocol.ts says why),
  // the first ones and those that replace a stopped or failed thread alike.
  const loadedThreads = new Set<number>();
  let loadChanged: () => void = () => {};
  const allThreadsLoaded = () =>
    piscina.threads.every((thread) => loadedThreads.has(thread.threadId));
  piscina.on('workerDestroy', () => loadChanged());

  // Without a listener an 'error' event (a thread that failed to start, with no task to blame)
  // would end the process. The jobs it concerned fail or run again below.
  piscina.on('error', (error: unknown) => {
    // A thread that failed to start will not load: it leaves the pool's threads.
    loadChanged();
    if (!closed) log(`render pool: a render thread failed: ${describe(error)}`);
  });
  piscina.on('message', (message: unknown) => {
    if (isRenderThreadLoaded(message)) {
      loadedThreads.add(message.threadId);
      return loadChanged();
    }
    if (!isRenderStarted(message)) return;
    const entry = dispatched.get(message.taskId);
    if (!entry || entry.settled) return;
    entry.threadId = message.threadId;
    entry.timer = setTimeout(() => expire(entry), deadlineMs * jobWeight(entry.task.job));
  });

  function settle(entry: Dispatched): boolean {
    if (entry.settled) return false;
    entry.settled = true;
    if (entry.timer) clearTimeout(entry.timer);
    dispatched.delete(entry.id);
    return true;
  }

  function expire(entry: Dispatched): void {
    if (!settle(entry)) return;
    entry.task.reject(renderTimeoutError(deadlineMs));
    log(
      `render pool: a render passed its ${deadlineMs} ms deadline; replacing its thread (${entry.threadId}).`,
    );
    const thread = piscina.threads.find((worker) => worker.threadId === entry.threadId);
    // piscina sees the thread exit, fails what else ran on it (those jobs run again) and
    // starts a new thread.
    thread?.terminate().catch(() => undefined);
  }

  function enqueue(task: QueuedTask, front: boolean): void {
    if (task.lane === 'interactive') {
      if (front) interactive.unshift(task);
      else interactive.push(task);
      return;
    }
    const existing = batchGroups.get(task.group);
    if (existing) {
      if (front) existing.tasks.unshift(task);
      else existing.tasks.push(task);
      return;
    }
    let level = Infinity;
    for (const [name, other] of batchGroups) {
      // Idle groups keep their history briefly so a refilled queue does not jump ahead.
      if (other.tasks.length === 0 && batchGroups.size > 64) batchGroups.delete(name);
      else if (other.tasks.length > 0) level = Math.min(level, other.served);
    }
    batchGroups.set(task.group, {
      tasks: [task],
      served: level === Infinity ? 0 : level,
      lastServed: 0,
    });
  }

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

  /** A job whose thread went away (or that threw): once more, else a clear error. */
  function lost(entry: Dispatched, error: unknown): void {
    const { task } = entry;
    if (closed) {
      task.reject(stoppingError());
    } else if (task.attempts < MAX_ATTEMPTS) {
      enqueue(task, true);
    } else if (entry.threadId !== null) {
      task.reject(
        new AppError(
          'render-failed',
          `The render thread stopped while drawing this image (${describe(error)}). Retry; if it happens again, the template or its values are at fault.`,
        ),
      );
    } else {
      task.reject(
        new AppError(
          'service-busy',
          `No render thread could take the job (${describe(error)}). Retry in a moment.`,
          { headers: { 'Retry-After': '2' } },
        ),
      );
    }
  }

  function pump(): void {
    while (!closed && inFlight < threads * depth) {
      const task = nextTask();
      if (!task) return;
      let posted: PostedRenderJob;
      const taskId = nextTaskId++;
      try {
        posted = { ...task.job, template: shareTemplate(task.job.template), taskId };
      } catch (error) {
        task.reject(error);
        continue;
      }
      inFlight += 1;
      task.attempts += 1;
      const entry: Dispatched = { id: taskId, task, threadId: null, timer: null, settled: false };
      dispatched.set(taskId, entry);
      let running: Promise<RenderResult>;
      try {
        running = piscina.run(posted) as Promise<RenderResult>;
      } catch (error) {
        // A thread that cannot even be created throws here, synchronously.
        running = Promise.reject(error);
      }
      running
        .then(
          (result) => {
            if (settle(entry)) task.resolve(result);
          },
          (error: unknown) => {
            if (settle(entry)) lost(entry, error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
  }

  return {
    threads,
    deadlineMs,
    run(job, { lane = 'interactive', group = 'default' } = {}) {
      if (closed) return Promise.reject(stoppingError());
      return new Promise<RenderResult>((resolve, reject) => {
        enqueue({ job, lane, group, attempts: 0, resolve, reject }, false);
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
      const error = stoppingError();
      for (const task of interactive.splice(0)) task.reject(error);
      for (const group of batchGroups.values())
        for (const task of group.tasks.splice(0)) task.reject(error);
      batchGroups.clear();
      for (const entry of dispatched.values()) if (entry.timer) clearTimeout(entry.timer);
      // Bounded: a thread that hangs while loading must not hold the process open.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, LOAD_WAIT_MS);
        function done() {
          clearTimeout(timer);
          loadChanged = () => {};
          resolve();
        }
        loadChanged = () => {
          if (allThreadsLoaded()) done();
        };
        loadChanged();
      });
      await piscina.destroy();
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Renders one job stands for: a sheet part draws each of its items (both sides, duplex). */
export function jobWeight(job: RenderJob): number {
  if (!job.sheet) return 1;
  return job.sheet.items.length * (job.sheet.plan.duplex === 'none' ? 1 : 2);
}
