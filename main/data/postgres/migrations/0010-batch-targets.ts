import type { PostgresMigration } from '../migrate.js';

/**
 * The layouts of a batch of several sizes (`targets`), NULL for one layout, as in SQLite version
 * 15: a team service draws several sizes per batch as the app does.
 */
export const batchTargets: PostgresMigration = {
  version: 10,
  name: 'batch-targets',
  async up(client) {
    await client.query(
      "ALTER TABLE batches ADD COLUMN targets jsonb CHECK (targets IS NULL OR jsonb_typeof(targets) = 'array')",
    );
  },
};
