import type { PostgresMigration } from '../migrate.js';

/** A batch's sheet options (N-up imposition), NULL for single files, as in SQLite version 13. */
export const batchSheetOptions: PostgresMigration = {
  version: 7,
  name: 'batch-sheet-options',
  async up(client) {
    await client.query('ALTER TABLE batches ADD COLUMN sheet_options jsonb');
  },
};
