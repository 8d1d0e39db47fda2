import { DEFAULT_RENDER_TIMEOUT_MS } from '../config.js';
import {
  createRenderPool,
  type RenderPool,
  type RenderPoolOptions,
} from '../render/render-pool.js';

/**
 * A render pool whose threads start at the first render. Listing templates, or a cached batch
 * where no row changed, then never pays for starting render threads (half a second each).
 */
export interface LazyRenderPool extends RenderPool {
  /** Starts the threads now, ahead of the first render. */
  start(): void;
}

export function lazyRenderPool(options: RenderPoolOptions & { threads: number }): LazyRenderPool {
  let pool: RenderPool | undefined;
  const started = () => (pool ??= createRenderPool(options));
  return {
    threads: options.threads,
    deadlineMs: options.deadlineMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    run: (job, runOptions) => started().run(job, runOptions),
    queued: () => pool?.queued() ?? { interactive: 0, batch: 0 },
    start: () => void started(),
    close: async () => {
      await pool?.close();
    },
  };
}
