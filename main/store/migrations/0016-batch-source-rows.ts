import type { Migration } from '../migrate.js';

/**
 * A batch may draw only some rows of its upload (a rerun of another batch's failed rows): their
 * indexes are kept as a JSON array, NULL for every row. A new nullable column needs no rebuild.
 */
export const batchSourceRows: Migration = {
  version: 16,
  name: 'batch-source-rows',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN source_rows TEXT
        CHECK (source_rows IS NULL OR (json_valid(source_rows) AND json_type(source_rows) = 'array'));
    `);
  },
};
