import type { Batch, BatchStatus } from './types';

export const LIVE_STATUSES: readonly BatchStatus[] = ['queued', 'running'];

/** A batch still rendering (or waiting to): its counts and rows change. */
export function isLive(batch: Pick<Batch, 'status'>): boolean {
  return LIVE_STATUSES.includes(batch.status);
}
