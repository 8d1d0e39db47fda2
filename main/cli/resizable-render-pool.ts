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
 * A render pool that starts small and is sized once the work is known. A cached batch starts one
 * render thread at once (loading the engine while the rows are hashed), and gets every thread
 * only when many rows turn out to need rendering: three changed rows do not pay for starting the
 * other threads (half a second of CPU each). `threads` stays the configured count, which the
 * batch runner sizes its rows in flight by.
 */
export function resizableRenderPool(
  options: RenderPoolOptions & { threads: number; startWith: number },
): ResizableRenderPool {
  const { startWith, ...poolOptions } = options;
  let size = Math.min(startWith, options.threads);
  let pool = createRenderPool({ ...poolOptions, threads: size });
  return {
    threads: options.threads,
    get deadlineMs() {
      return pool.deadlineMs;
    },
    run: (job, runOptions) => pool.run(job, runOptions),
    queued: () => pool.queued(),
    async resize(threads) {
      const wanted = Math.max(1, Math.min(threads, options.threads));
      if (wanted === size) return;
      const old = pool;
      size = wanted;
      pool = createRenderPool({ ...poolOptions, threads: wanted });
      await old.close();
    },
    close: () => pool.close(),
  };
}
