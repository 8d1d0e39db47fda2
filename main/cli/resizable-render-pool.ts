import {
  createRenderPool,
  type RenderPool,
  type RenderPoolOptions,
} from '../render/render-pool.js';

export interface ResizableRenderPool extends RenderPool {
  /** Replaces the threads with `threads` new ones; call it while nothing is rendering. */
  resize(threads: number): Promise<void>;
}

/**
 * A render pool sized once the work is known. A cached batch starts one thread, and more only
 * once it knows how many rows changed: three changed rows do not pay for starting every thread
 * (half a second of CPU each). `threads` stays the configured count, which the batch runner
 * sizes its rows in flight by; a render before any resize, with none started, starts them all.
 */
export function resizableRenderPool(
  options: RenderPoolOptions & { threads: number; startWith: number },
): ResizableRenderPool {
  const { startWith, ...poolOptions } = options;
  let size = Math.min(startWith, options.threads);
  let pool: RenderPool | undefined =
    size > 0 ? createRenderPool({ ...poolOptions, threads: size }) : undefined;
  const started = (): RenderPool => {
    if (!pool) {
      size = options.threads;
      pool = createRenderPool({ ...poolOptions, threads: size });
    }
    return pool;
  };
  return {
    threads: options.threads,
    get deadlineMs() {
      return started().deadlineMs;
    },
    run: (job, runOptions) => started().run(job, runOptions),
    queued: () => pool?.queued() ?? { interactive: 0, batch: 0 },
    async resize(threads) {
      const wanted = Math.max(1, Math.min(threads, options.threads));
      if (pool && wanted === size) return;
      const old = pool;
      size = wanted;
      pool = createRenderPool({ ...poolOptions, threads: wanted });
      await old?.close();
    },
    close: async () => {
      await pool?.close();
    },
  };
}
