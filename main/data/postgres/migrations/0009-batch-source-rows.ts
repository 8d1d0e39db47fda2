import type { PostgresMigration } from '../migrate.js';

/** The rows of its upload a batch draws (a rerun of failed rows), NULL for every row, as in SQLite version 16. */
export const batchSourceRows: PostgresMigration = {
  version: 9,
  name: 'batch-source-rows',
  async up(client) {
    await client.query(
      "ALTER TABLE batches ADD COLUMN source_rows jsonb CHECK (source_rows IS NULL OR jsonb_typeof(source_rows) = 'array')",
    );
  },
};
