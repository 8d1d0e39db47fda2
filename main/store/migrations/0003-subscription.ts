import type { Migration } from '../migrate.js';
import { subscriptionTable } from '../../data/schema/subscription-table.js';

/**
 * The subscription as a one-row table rather than loose settings keys, so its status is checked
 * by SQLite and read in one query. A new or existing install starts active with no end date.
 */
export const subscription: Migration = {
  version: 3,
  name: 'subscription',
  up(db) {
    db.exec(`
      ${subscriptionTable({ id: 'INTEGER', time: 'TEXT' })} STRICT;
    `);
    db.prepare(
      "INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, 'active', NULL, ?)",
    ).run(new Date().toISOString());
  },
};
