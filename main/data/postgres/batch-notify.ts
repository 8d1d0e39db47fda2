import type { Queryable } from './transaction.js';

/**
 * The channel on which a batch's changes are announced, with the batch id as payload. API nodes
 * LISTEN on it to push progress events; PostgreSQL delivers a notification only when (and if)
 * the transaction that sent it commits, so a listener never hears of a change that rolled back.
 */
export const BATCH_CHANNEL = 'render_desk_batch';

export async function notifyBatchChanged(db: Queryable, batchId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [BATCH_CHANNEL, batchId]);
}
