import type { Migration } from '../migrate.js';

/** Brand profiles: named profiles as validated JSON, at most one of them the default. */
export const brandProfiles: Migration = {
  version: 2,
  name: 'brand-profiles',
  up(db) {
    db.exec(`
      CREATE TABLE brand_profiles (
        id TEXT PRIMARY KEY CHECK (id LIKE 'brand\\_%' ESCAPE '\\'),
        name TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
        data TEXT NOT NULL CHECK (json_valid(data)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX brand_profiles_one_default ON brand_profiles (is_default) WHERE is_default = 1;
    `);
  },
};
