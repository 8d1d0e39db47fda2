import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePostgres, postgresSchemaVersion } from '../../main/data/postgres/migrate.js';
import type { PostgresMigration } from '../../main/data/postgres/migrate.js';
import {
  LATEST_POSTGRES_SCHEMA_VERSION,
  POSTGRES_MIGRATIONS,
} from '../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => closePostgres(pool)));
});

/** An empty database (no schema at all) and a pool on it. */
async function emptyDatabase(): Promise<{ url: string; pool: pg.Pool }> {
  const url = await implementations.emptyDatabaseUrl();
  return { url, pool: track(openPostgres(url, { max: 2 })) };
}

function track(pool: pg.Pool): pg.Pool {
  pools.push(pool);
  return pool;
}

async function tables(pool: pg.Pool): Promise<string[]> {
  const result = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return result.rows.map((row) => row.name);
}

describe('PostgreSQL migrations', () => {
  it('migrate an empty database to the latest version, recording each step', async () => {
    const { pool } = await emptyDatabase();
    expect(await postgresSchemaVersion(pool)).toBe(0);
    const result = await migratePostgres(pool, POSTGRES_MIGRATIONS);
    expect(result).toEqual({
      from: 0,
      to: LATEST_POSTGRES_SCHEMA_VERSION,
      applied: POSTGRES_MIGRATIONS.map((m) => m.version),
    });
    const recorded = await pool.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(recorded.rows).toEqual(
      POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    // The core's tables; later migrations may add their own beside them.
    expect(await tables(pool)).toEqual(
      expect.arrayContaining([
        'account',
        'api_keys',
        'batch_holds',
        'batch_rows',
        'batches',
        'brand_profiles',
        'idempotency_keys',
        'ledger',
        'renders',
        'schema_migrations',
        'settings',
        'subscription',
        'uploads',
      ]),
    );
  });

  it('is a no-op on a database that is up to date', async () => {
    const { pool } = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    expect(await migratePostgres(pool, POSTGRES_MIGRATIONS)).toEqual({
      from: LATEST_POSTGRES_SCHEMA_VERSION,
      to: LATEST_POSTGRES_SCHEMA_VERSION,
      applied: [],
    });
  });

  it('applies each step once when several nodes migrate at the same time', async () => {
    const { url, pool } = await emptyDatabase();
    const nodes = Array.from({ length: 4 }, () => track(openPostgres(url, { max: 1 })));
    const results = await Promise.all(
      nodes.map((node) => migratePostgres(node, POSTGRES_MIGRATIONS)),
    );
    const applied = results.flatMap((result) => result.applied).sort((a, b) => a - b);
    expect(applied).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    for (const result of results) expect(result.to).toBe(LATEST_POSTGRES_SCHEMA_VERSION);
    const counted = await pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM schema_migrations');
    expect(counted.rows[0]?.n).toBe(LATEST_POSTGRES_SCHEMA_VERSION);
  });

  it('leaves the schema at the last good version when a step fails, and never goes back', async () => {
    const { pool } = await emptyDatabase();
    const broken: PostgresMigration = {
      version: POSTGRES_MIGRATIONS.length + 1,
      name: 'broken',
      async up(client) {
        await client.query('CREATE TABLE half_done (id integer)');
        await client.query('SELECT no_such_function()');
      },
    };
    await expect(migratePostgres(pool, [...POSTGRES_MIGRATIONS, broken])).rejects.toThrow(
      /no_such_function/,
    );
    expect(await postgresSchemaVersion(pool)).toBe(LATEST_POSTGRES_SCHEMA_VERSION);
    expect(await tables(pool)).not.toContain('half_done');
    await expect(migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 0 })).rejects.toThrow(
      `The database is at schema version ${LATEST_POSTGRES_SCHEMA_VERSION}; migrations never go back to 0.`,
    );
    await expect(migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, 0))).rejects.toThrow(
      /newer than this app knows \(0\)/,
    );
  });

  it('keeps the constraints that protect the money and the rows', async () => {
    const { pool } = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    const debit = `INSERT INTO ledger (kind, amount, batch_id, row_index, created_at)
                   VALUES ('debit', 1, 'bat_x', 4, now())`;
    await pool.query(debit);
    await expect(pool.query(debit)).rejects.toMatchObject({
      code: '23505',
      constraint: 'ledger_one_debit_per_batch_row',
    });
    await expect(pool.query('UPDATE account SET held = granted + 1')).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      pool.query("INSERT INTO batch_holds (batch_id, held) VALUES ('bat_x', -1)"),
    ).rejects.toMatchObject({ code: '23514' });

    await pool.query(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         brand, today, status, created_at)
       VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', '{}', '2026-01-01', 'queued', now())`,
    );
    const row = (status: string, index: number) =>
      pool.query(
        `INSERT INTO batch_rows (batch_id, row_index, status, record, render_id, output_key)
         VALUES ('bat_a', $1, $2, '{}', 'rnd_a', $3)`,
        [index, status, status === 'succeeded' ? 'out' : null],
      );
    await row('pending', 0);
    await row('succeeded', 1);
    await expect(row('done', 2)).rejects.toMatchObject({ code: '23514' });
    await expect(
      pool.query(
        "INSERT INTO batch_rows (batch_id, row_index, status, record, render_id) VALUES ('bat_a', 3, 'succeeded', '{}', 'rnd_b')",
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await pool.query("DELETE FROM batches WHERE id = 'bat_a'");
    const left = await pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM batch_rows');
    expect(left.rows[0]?.n).toBe(0);
  });
});
