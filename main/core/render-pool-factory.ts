import type { CoreSettings } from '../config.js';
import type { RenderPool, RenderPoolOptions } from '../render/render-pool.js';

/**
 * How a front end makes its render pool: the server starts every thread with the core, tests
 * and most commands start them at the first render (`lazyRenderPool`), a cached batch starts one
 * and sizes the rest once it knows the work (`resizableRenderPool`).
 */
export type RenderPoolFactory = (options: RenderPoolOptions & { threads: number }) => RenderPool;

/**
 * The core's render pool, made by the front end's factory with the core's threads and render
 * deadline: the server, every command and every cluster role stop a render after the same time.
 */
export function startRenderPool(
  settings: Pick<CoreSettings, 'workers' | 'renderTimeoutMs'>,
  factory: RenderPoolFactory,
  log?: (message: string) => void,
): RenderPool {
  return factory({
    threads: settings.workers,
    ...(settings.renderTimeoutMs !== undefined ? { deadlineMs: settings.renderTimeoutMs } : {}),
    ...(log ? { log } : {}),
  });
}
