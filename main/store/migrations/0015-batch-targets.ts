import type { Migration } from '../migrate.js';

/**
 * A batch may draw every row in several layouts (square, story, …): the list is kept as JSON,
 * NULL for a batch of one layout. A new nullable column needs no table rebuild.
 */
export const batchTargets: Migration = {
  version: 15,
  name: 'batch-targets',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN targets TEXT
        CHECK (targets IS NULL OR (json_valid(targets) AND json_type(targets) = 'array'));
    `);
  },
};
