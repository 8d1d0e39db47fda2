import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRenderPool,
  tasksPerThread,
  type RenderPool,
} from '../../main/render/render-pool.js';
import type { RenderJob } from '../../main/render/render-protocol.js';
import { compiledCoreUrl } from '../helpers/compiled-core.js';

const echoWorker = fileURLToPath(new URL('./fixtures/echo-worker.mjs', import.meta.url));
let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

// The echo worker only reads `label` and `delayMs`; the pool shares every job's template.
const job = (label: string, delayMs = 20) =>
  ({ label, delayMs, template: { id: 'echo' } }) as unknown as RenderJob;

describe('render pool lanes', () => {
  it('serves a single render before queued batch rows', async () => {
    pool = createRenderPool({ threads: 1, workerFile: echoWorker });
    const order: string[] = [];
    const track = (p: Promise<unknown>) =>
      p.then((r) => order.push((r as { label: string }).label));
    const work = [
      ...['a1', 'a2', 'a3'].map((l) => track(pool!.run(job(l), { lane: 'batch', group: 'A' }))),
    ];
    await new Promise((r) => setTimeout(r, 5));
    work.push(track(pool.run(job('single'), { lane: 'interactive' })));
    await Promise.all(work);
    // a1 was already on the thread; the single render goes next, before a2 and a3.
    expect(order).toEqual(['a1', 'single', 'a2', 'a3']);
  });

  it('shares the batch lane fairly between batches', async () => {
    pool = createRenderPool({ threads: 1, workerFile: echoWorker });
    const order: string[] = [];
    const all: Promise<unknown>[] = [];
    for (const l of ['a1', 'a2', 'a3'])
      all.push(pool.run(job(l, 5), { lane: 'batch', group: 'A' }).then(() => order.push(l)));
    for (const l of ['b1', 'b2', 'b3'])
      all.push(pool.run(job(l, 5), { lane: 'batch', group: 'B' }).then(() => order.push(l)));
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('refuses the renders waiting or asked for as it closes as retryable: the core is stopping', async () => {
    pool = createRenderPool({ threads: 1, workerFile: echoWorker });
    const running = pool.run(job('running', 200), { lane: 'interactive' });
    const waiting = pool.run(job('waiting'), { lane: 'batch', group: 'A' });
    const outcomes = Promise.allSettled([running, waiting]);
    await pool.close();
    const stopping = {
      code: 'service-busy',
      status: 503,
      headers: { 'Retry-After': '5' },
      message: expect.stringMatching(/stopping/),
    };
    const [, queued] = await outcomes;
    expect(queued).toMatchObject({ status: 'rejected', reason: stopping });
    await expect(pool.run(job('late'), { lane: 'interactive' })).rejects.toMatchObject(stopping);
  });

  it('hands each thread at most its pipeline depth and reports the queues', async () => {
    pool = createRenderPool({ threads: 2, workerFile: echoWorker });
    const all = Array.from({ length: 8 }, (_, i) =>
      pool!.run(job(`r${i}`, 30), { lane: 'batch', group: 'A' }),
    );
    expect(pool.queued()).toEqual({ interactive: 0, batch: 8 - 2 * tasksPerThread(2) });
    await Promise.all(all);
    expect(pool.queued()).toEqual({ interactive: 0, batch: 0 });
  });
});

const failsToStartOnce = fileURLToPath(
  new URL('./fixtures/fails-to-start-once-worker.mjs', import.meta.url),
);
const runawayWorker = fileURLToPath(new URL('./fixtures/runaway-worker.mjs', import.meta.url));

describe('render pool faults', () => {
  it('keeps serving when a render thread fails to start', async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rd-pool-')), 'fail-start');
    fs.writeFileSync(marker, '');
    process.env.RD_TEST_FAIL_START = marker;
    const logged: string[] = [];
    try {
      pool = createRenderPool({
        threads: 1,
        workerFile: failsToStartOnce,
        log: (message) => logged.push(message),
      });
      // The first thread dies while starting, with no job to blame: piscina reports it as an
      // 'error' event, which used to end the process.
      await expect.poll(() => fs.existsSync(marker), { timeout: 30_000 }).toBe(false);
      await expect
        .poll(() => logged.join('\n'), { timeout: 30_000 })
        .toMatch(/a render thread failed: this thread could not start/);
      expect(await pool.run(job('after'))).toMatchObject({ ok: true, label: 'after' });
    } finally {
      delete process.env.RD_TEST_FAIL_START;
    }
  });

  it('stops a job past its deadline with render-timeout, replaces its thread and serves the next job', async () => {
    pool = createRenderPool({
      threads: 1,
      workerFile: runawayWorker,
      deadlineMs: 500,
      log: () => {},
    });
    const first = (await pool.run(job('warm-up'))) as unknown as { threadId: number };
    const startedAt = Date.now();
    await expect(pool.run(job('runaway'))).rejects.toMatchObject({
      code: 'render-timeout',
      status: 422,
    });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const next = (await pool.run(job('next'))) as unknown as { label: string; threadId: number };
    expect(next.label).toBe('next');
    expect(next.threadId).not.toBe(first.threadId);
  });

  it('runs a job again on a new thread when a runaway on its thread is stopped', async () => {
    const threads = os.availableParallelism();
    pool = createRenderPool({ threads, workerFile: runawayWorker, deadlineMs: 500, log: () => {} });
    // Fill every place on every thread, so one job waits on the runaway's thread.
    const runaway = pool.run(job('runaway'));
    const others = Array.from({ length: threads * tasksPerThread(threads) - 1 }, (_, i) =>
      pool!.run(job(`job-${i}`, 300)),
    );
    await expect(runaway).rejects.toMatchObject({ code: 'render-timeout' });
    const results = (await Promise.all(others)) as unknown as { label: string }[];
    expect(results.map((result) => result.label)).toEqual(others.map((_, i) => `job-${i}`));
  });
});

describe('closing a render pool', () => {
  const slow = fileURLToPath(new URL('./fixtures/slow-loading-worker.mjs', import.meta.url));

  /** Runs `body` with the slow-loading worker noting its threads' load in a file it reads. */
  async function withLoadLog(body: (lines: () => string[]) => Promise<void>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-pool-load-'));
    const file = path.join(dir, 'loaded.txt');
    fs.writeFileSync(file, '');
    const before = process.env.RD_TEST_LOADED_FILE;
    process.env.RD_TEST_LOADED_FILE = file;
    try {
      await body(() => fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean));
    } finally {
      if (before === undefined) delete process.env.RD_TEST_LOADED_FILE;
      else process.env.RD_TEST_LOADED_FILE = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('lets threads that are still loading finish loading before it stops them', async () => {
    // Node aborts the whole process when a thread is stopped while it loads an ES module; a
    // command refused right after start (a bad argument) closes a pool whose threads are loading.
    await withLoadLog(async (lines) => {
      const closing = createRenderPool({ threads: 2, workerFile: slow, log: () => {} });
      await closing.close();
      expect(lines().filter((line) => line.startsWith('loaded'))).toHaveLength(2);
    });
  });

  it('lets a thread that replaces a stopped one finish loading before it stops it', async () => {
    await withLoadLog(async (lines) => {
      const closing = createRenderPool({
        threads: 1,
        deadlineMs: 300,
        workerFile: slow,
        log: () => {},
      });
      await expect(closing.run(job('runaway'), { lane: 'interactive' })).rejects.toMatchObject({
        code: 'render-timeout',
      });
      // The stopped thread's replacement has started loading: close while it loads.
      const deadline = Date.now() + 10_000;
      while (lines().filter((line) => line.startsWith('start')).length < 2) {
        if (Date.now() > deadline) throw new Error('no thread replaced the stopped one');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await closing.close();
      expect(lines().filter((line) => line.startsWith('loaded'))).toHaveLength(2);
    });
  });

  it('never aborts the process when pools are closed as soon as their threads have loaded', () => {
    // In a child process: the abort this guards against ends the whole process, not a test.
    const script = fileURLToPath(new URL('./fixtures/close-pools-at-load.mjs', import.meta.url));
    const child = spawnSync(process.execPath, [script, compiledCoreUrl(), '40'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).not.toMatch(/FATAL ERROR|IsGraphAsync/);
    expect({ status: child.status, signal: child.signal, stdout: child.stdout.trim() }).toEqual({
      status: 0,
      signal: null,
      stdout: 'closed 40 pools',
    });
  });
});
