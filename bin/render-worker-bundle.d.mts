import type * as esbuild from 'esbuild';

/**
 * Bundles `<coreDir>/main/render/render-worker.js` (already compiled) into
 * render-worker.bundle.js beside it and points the worker entry at it. Returns the bundle's path.
 */
export function bundleRenderWorker(
  builder: typeof esbuild,
  coreDir: string,
  target: string,
): Promise<string>;
