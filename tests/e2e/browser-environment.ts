import { builtinEnvironments, type Environment } from 'vitest/runtime';
import { CLOSE_WORKER_BROWSER } from './chromium.js';

/**
 * Vitest's node environment, plus closing the worker's Chromium (harness.ts) when the worker
 * stops: a worker runs many test files and keeps one browser for all of them. Closed here, the
 * browser exits and its temporary profile is removed before vitest ends the worker process.
 */
const environment: Environment = {
  name: 'node-with-browser',
  viteEnvironment: 'ssr',
  async setup(global, options) {
    const node = await builtinEnvironments.node.setup(global, options);
    return {
      async teardown(global) {
        const close = (globalThis as Record<symbol, (() => Promise<void>) | undefined>)[
          CLOSE_WORKER_BROWSER
        ];
        await close?.();
        await node.teardown(global);
      },
    };
  },
};

export default environment;
