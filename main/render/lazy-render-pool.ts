import { DEFAULT_RENDER_TIMEOUT_MS } from '../config.js';
import { createRenderPool, type RenderPool, type RenderPoolOptions } from './render-pool.js';

/**
 * A render pool whose threads start at the first render: listing templates, or a pre-flight that
 * stops at a refused value, never pays for starting render threads (half a second each).
 */
export function lazyRenderPool(options: RenderPoolOptions & { threads: number }): RenderPool {
  let pool: RenderPool | undefined;
  const started = () => (pool ??= createRenderPool(options));
  return {
    threads: options.threads,
    deadlineMs: options.deadlineMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    run: (job, runOptions) => started().run(job, runOptions),
    queued: () => pool?.queued() ?? { interactive: 0, batch: 0 },
    close: async () => {
      await pool?.close();
    },
  };
}
