import type { Migration } from '../migrate.js';

/**
 * How many rows a batch's source has, whatever rows it draws: `{ generated: total }` reads it, and
 * a batch of chosen rows could not count it from its own. NULL for older batches, which count
 * their own rows. A new nullable column needs no rebuild.
 */
export const batchSourceTotal: Migration = {
  version: 18,
  name: 'batch-source-total',
  up(db) {
    db.exec(
      'ALTER TABLE batches ADD COLUMN source_total INTEGER CHECK (source_total IS NULL OR source_total >= 0);',
    );
  },
};
