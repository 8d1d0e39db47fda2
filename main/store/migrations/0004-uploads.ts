import type { Migration } from '../migrate.js';

/** Uploaded spreadsheets, images and image zips; expires_at is cleared once a batch uses one. */
export const uploads: Migration = {
  version: 4,
  name: 'uploads',
  up(db) {
    db.exec(`
      CREATE TABLE uploads (
        id TEXT PRIMARY KEY CHECK (id LIKE 'upl\\_%' ESCAPE '\\'),
        kind TEXT NOT NULL CHECK (kind IN ('csv', 'xlsx', 'image', 'zip')),
        filename TEXT NOT NULL,
        path TEXT NOT NULL,
        bytes INTEGER NOT NULL CHECK (bytes >= 0),
        content_type TEXT,
        info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(info)),
        api_key_id TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT
      ) STRICT;
      CREATE INDEX uploads_expiry ON uploads (expires_at) WHERE expires_at IS NOT NULL;
    `);
  },
};
