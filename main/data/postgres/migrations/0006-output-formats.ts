import type { PostgresMigration } from '../migrate.js';

/**
 * Batches may render avif and pdf and keep their output options (scale, transparent background,
 * crop marks), as in SQLite version 11.
 */
export const outputFormats: PostgresMigration = {
  version: 6,
  name: 'output-formats',
  async up(client) {
    await client.query(`
      ALTER TABLE batches DROP CONSTRAINT batches_format_check;
      ALTER TABLE batches ADD CONSTRAINT batches_format_check
        CHECK (format IN ('png', 'jpeg', 'webp', 'avif', 'pdf'));
      ALTER TABLE batches ADD COLUMN output_options jsonb NOT NULL DEFAULT '{}';
    `);
  },
};
