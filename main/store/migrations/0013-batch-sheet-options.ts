import type { Migration } from '../migrate.js';

/**
 * A batch may place its rows N per printed sheet: its sheet options (preset, size, grid, marks,
 * duplex) are kept as JSON, NULL for a batch of single files. A new nullable column needs no
 * table rebuild.
 */
export const batchSheetOptions: Migration = {
  version: 13,
  name: 'batch-sheet-options',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN sheet_options TEXT
        CHECK (sheet_options IS NULL OR json_valid(sheet_options));
    `);
  },
};
