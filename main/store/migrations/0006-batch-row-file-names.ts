import type { Migration } from '../migrate.js';

/**
 * The file name of each row's output in the bundle, assigned as rows are read (in source order,
 * so names made unique with -2, -3 … are the same on every run) and shown in the manifest.
 */
export const batchRowFileNames: Migration = {
  version: 6,
  name: 'batch-row-file-names',
  up(db) {
    db.exec('ALTER TABLE batch_rows ADD COLUMN file_name TEXT');
  },
};
