import { afterEach, describe, expect, it } from 'vitest';
import { closePostgres, openPostgres } from '../../../main/data/postgres/open-postgres.js';
import { openDatabase } from '../../../main/store/open-database.js';
import { sharedPostgresDatabase } from '../../helpers/services/shared-services.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** `table.column` of every column of a freshly migrated SQLite store, SQLite's own tables aside. */
function sqliteColumns(): string[] {
  const db = openDatabase(':memory:');
  closers.push(() => Promise.resolve(void db.close()));
  return db
    .prepare<[], string>(
      `SELECT m.name || '.' || c.name FROM sqlite_schema m, pragma_table_info(m.name) c
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       ORDER BY 1`,
    )
    .pluck()
    .all();
}

/** `table.column` of every column of a freshly migrated PostgreSQL database. */
async function postgresColumns(): Promise<Set<string>> {
  const pool = openPostgres((await sharedPostgresDatabase({ migrated: true })).url, { max: 1 });
  closers.push(() => closePostgres(pool));
  const result = await pool.query<{ name: string }>(
    `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
     WHERE table_schema = 'public'`,
  );
  return new Set(result.rows.map((row) => row.name));
}

describe('the migrated schemas', () => {
  // Both data implementations read and write the same rows (main/data/rows); PostgreSQL adds the
  // cluster's own tables and columns beside them.
  it('give PostgreSQL every table and column the SQLite store has', async () => {
    const inPostgres = await postgresColumns();
    const sqlite = sqliteColumns();
    expect(sqlite).toContain('ledger.batch_id');
    expect(sqlite.filter((column) => !inPostgres.has(column))).toEqual([]);
  });
});
