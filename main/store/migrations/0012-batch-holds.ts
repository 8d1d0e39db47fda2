import type { Migration } from '../migrate.js';

/**
 * What each batch still holds, as a running total beside the ledger (as `account` keeps the
 * account's). Every settled row used to sum the batch's ledger entries to find its hold, which
 * grows with every row: a 10,000-row batch summed 100 million entries over its run. Filled from
 * the ledger, so batches in flight keep their holds.
 */
export const batchHolds: Migration = {
  version: 12,
  name: 'batch-holds',
  up(db) {
    db.exec(`
      CREATE TABLE batch_holds (
        batch_id TEXT PRIMARY KEY,
        held INTEGER NOT NULL CHECK (held >= 0)
      ) STRICT;
      INSERT INTO batch_holds (batch_id, held)
        SELECT batch_id, SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount ELSE 0 END)
        FROM ledger WHERE batch_id IS NOT NULL AND kind IN ('hold', 'release')
        GROUP BY batch_id
        HAVING SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount ELSE 0 END) > 0;
    `);
  },
};
