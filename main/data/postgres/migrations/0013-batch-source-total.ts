import { sqlMigration } from '../migrate.js';

/** How many rows a batch's source has, whatever rows it draws; NULL for older batches (SQLite version 18). */
export const batchSourceTotal = sqlMigration(
  13,
  'batch-source-total',
  'ALTER TABLE batches ADD COLUMN source_total integer CHECK (source_total IS NULL OR source_total >= 0)',
);
