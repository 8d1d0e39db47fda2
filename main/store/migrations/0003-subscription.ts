import type { Migration } from '../migrate.js';

/**
 * The subscription as a one-row table rather than loose settings keys, so its status is checked
 * by SQLite and read in one query. A new or existing install starts active with no end date.
 */
export const subscription: Migration = {
  version: 3,
  name: 'subscription',
  up(db) {
    db.exec(`
      CREATE TABLE subscription (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        status TEXT NOT NULL CHECK (status IN ('active', 'lapsed')),
        expires_at TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
    db.prepare(
      "INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, 'active', NULL, ?)",
    ).run(new Date().toISOString());
  },
};
