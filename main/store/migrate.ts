import type { Database } from './open-database.js';

/** One schema step. Released migrations are never edited: a change is a new file. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

export interface MigrateOptions {
  /** Target version; default the last migration's. */
  to?: number | undefined;
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: number[];
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
  checkSequence(migrations);
  const latest = migrations.length;
  const target = options.to ?? latest;
  if (!Number.isInteger(target) || target < 0 || target > latest) {
    throw new Error(
      `Cannot migrate to schema version ${target}: versions run from 0 to ${latest}.`,
    );
  }

  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);

  const from = schemaVersion(db);
  if (from > latest) {
    throw new Error(
      `The database is at schema version ${from}, newer than this app knows (${latest}). ` +
        'Update Render Desk to open it.',
    );
  }
  if (from > target) {
    throw new Error(
      `The database is at schema version ${from}; migrations never go back to ${target}.`,
    );
  }

  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > target) break;
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

function checkSequence(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version}; expected ${index + 1}.`,
      );
    }
  });
}
