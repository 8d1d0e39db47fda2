import sharp from 'sharp';
import { renderJob } from '../engine/render-job.js';
import type { RenderJob, RenderResult } from './render-protocol.js';

// One libvips thread per worker: the pool already keeps every core busy, and sharp's own
// threads competing with it cost more than they gain.
sharp.concurrency(1);
sharp.cache(false);

export default async function render(job: RenderJob): Promise<RenderResult> {
  return renderJob(job);
}
