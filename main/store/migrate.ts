import {
  checkStartingVersion,
  pendingMigrations,
  planMigrations,
  type MigrateOptions,
  type MigrateResult,
  type MigrationStep,
} from '../data/migration-plan.js';
import type { Database } from './open-database.js';

/** One schema step. Released migrations are never edited: a change is a new file. */
export interface Migration extends MigrationStep {
  up(db: Database): void;
}

/** The schema version recorded in the database header (0 for a new file). */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the pending migrations in order, each in its own IMMEDIATE transaction that also
 * records it in `schema_migrations` and `user_version`, so a crash leaves the schema at a
 * version boundary and two processes opening one file never apply a step twice.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[],
  options: MigrateOptions = {},
): MigrateResult {
  const plan = planMigrations(migrations, options);

  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);

  const from = schemaVersion(db);
  checkStartingVersion(from, plan, 'Update Render Desk to open it.');

  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applied: number[] = [];
  for (const migration of pendingMigrations(migrations, from, plan)) {
    const step = db.transaction(() => {
      // Re-read inside the write lock: another process may have applied it meanwhile.
      if (schemaVersion(db) >= migration.version) return false;
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (step.immediate()) applied.push(migration.version);
  }
  return { from, to: schemaVersion(db), applied };
}
