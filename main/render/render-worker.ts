import { parentPort, threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp from 'sharp';
import { renderJob } from '../engine/render-job.js';
import type {
  PostedRenderJob,
  RenderResult,
  RenderStarted,
  RenderThreadLoaded,
} from './render-protocol.js';
import { receiveTemplate } from './shared-templates.js';

// One libvips thread per worker: the pool already keeps every core busy, and sharp's own
// threads competing with it cost more than they gain.
sharp.concurrency(1);
sharp.cache(false);

// Loaded: the pool may stop this thread from now on (render-protocol.ts). Said once the module
// has been evaluated and its loader has returned: stopping a thread between the two aborts Node.
queueMicrotask(() =>
  parentPort?.postMessage({ kind: 'render-thread-loaded', threadId } satisfies RenderThreadLoaded),
);

/**
 * The image's buffer is moved to the main thread, not copied, when this thread owns all of it
 * (a slice of Node's shared buffer pool must never be detached).
 */
export default async function render(posted: PostedRenderJob): Promise<RenderResult | object> {
  // The pool's deadline for this job starts now (render-pool.ts).
  parentPort?.postMessage({
    kind: 'render-started',
    taskId: posted.taskId,
    threadId,
  } satisfies RenderStarted);
  const result = await renderJob({ ...posted, template: receiveTemplate(posted.template) });
  if (!result.ok) return result;
  const { buffer, byteOffset, byteLength } = result.bytes;
  if (byteLength === 0 || byteOffset !== 0 || buffer.byteLength !== byteLength) return result;
  return move({ [transferableSymbol]: [buffer], [valueSymbol]: result });
}
