import type pg from 'pg';
import {
  checkStartingVersion,
  pendingMigrations,
  planMigrations,
  type MigrateOptions,
  type MigrateResult,
  type MigrationPlan,
  type MigrationStep,
} from '../migration-plan.js';
import { ADVISORY_KEYS } from './advisory-keys.js';

/** One schema step. Released migrations are never edited: a change is a new file. */
export interface PostgresMigration extends MigrationStep {
  /** Runs inside the step's transaction; statements only, no COMMIT. */
  up(client: pg.PoolClient): Promise<void>;
}

/** A migration that is one script of statements, run in the step's transaction. */
export function sqlMigration(version: number, name: string, sql: string): PostgresMigration {
  return { version, name, up: async (client) => void (await client.query(sql)) };
}

/** The highest version recorded in schema_migrations (0 for a new database). */
export async function postgresSchemaVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const exists = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!exists.rows[0]?.present) return 0;
  const result = await db.query<{ version: number }>(
    'SELECT COALESCE(MAX(version), 0)::int AS version FROM schema_migrations',
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Applies the pending migrations in order, each in its own transaction that also records it in
 * `schema_migrations`, so a crash leaves the schema at a version boundary. The whole run holds an
 * advisory lock: several nodes starting at once wait for the first, then find nothing to do.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[],
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const plan = planMigrations(migrations, options);

  const client = await pool.connect();
  try {
    // Migrations may rewrite big tables, and waiting for another node's run may take a while.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_KEYS.migrations]);
    try {
      return await applyPending(client, migrations, plan);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_KEYS.migrations]);
    }
  } finally {
    // The session's settings were changed (and closing it frees the lock if unlocking failed):
    // this connection is closed, never handed back to the pool.
    client.release(true);
  }
}

async function applyPending(
  client: pg.PoolClient,
  migrations: readonly PostgresMigration[],
  plan: MigrationPlan,
): Promise<MigrateResult> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL
  )`);
  const from = await postgresSchemaVersion(client);
  checkStartingVersion(from, plan, 'Update Render Desk on this node to use it.');
  const applied: number[] = [];
  for (const migration of pendingMigrations(migrations, from, plan)) {
    await client.query('BEGIN');
    try {
      await migration.up(client);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    applied.push(migration.version);
  }
  return { from, to: await postgresSchemaVersion(client), applied };
}
