import type { Migration } from '../migrate.js';

/**
 * Every batch row has its render id from the moment it is read (the contract's manifest row always
 * carries one, failed rows included); a succeeded row's id is the one its output and debit carry.
 * Rows stored before this version get an id now.
 */
export const batchRowRenderIds: Migration = {
  version: 9,
  name: 'batch-row-render-ids',
  up(db) {
    db.exec(
      "UPDATE batch_rows SET render_id = 'rnd_' || lower(hex(randomblob(12))) WHERE render_id IS NULL",
    );
  },
};
