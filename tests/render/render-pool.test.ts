import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRenderPool,
  tasksPerThread,
  type RenderPool,
} from '../../main/render/render-pool.js';
import type { RenderJob } from '../../main/render/render-protocol.js';

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
