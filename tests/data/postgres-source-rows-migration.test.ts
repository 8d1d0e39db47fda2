import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePostgres, postgresSchemaVersion } from '../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => closePostgres(pool)));
});

async function emptyDatabase(): Promise<pg.Pool> {
  const pool = openPostgres(await implementations.emptyDatabaseUrl(), { max: 2 });
  pools.push(pool);
  return pool;
}

describe('PostgreSQL migration 9: batches keep the rows of their upload they draw', () => {
  it('leaves a batch of version 8 drawing every row and keeps the rows of a new one as a jsonb array', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 8 });
    await pool.query(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         source_ref, brand, today, status, created_at)
       VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', 'upl_a', '{}', '2026-01-01', 'partial', now())`,
    );
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 9 });
    expect(await postgresSchemaVersion(pool)).toBe(9);
    const old = await pool.query("SELECT source_ref, source_rows FROM batches WHERE id = 'bat_a'");
    expect(old.rows[0]).toEqual({ source_ref: 'upl_a', source_rows: null });
    const insert = (id: string, rows: string) =>
      pool.query(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           source_ref, brand, today, status, created_at, source_rows)
         VALUES ($1, 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', 'upl_a', '{}', '2026-01-01', 'queued', now(), $2)`,
        [id, rows],
      );
    await insert('bat_b', '[1, 3]');
    const fresh = await pool.query("SELECT source_rows FROM batches WHERE id = 'bat_b'");
    expect(fresh.rows[0]?.source_rows).toEqual([1, 3]);
    await expect(insert('bat_c', '{"1": true}')).rejects.toThrow(/check constraint/);
  });
});
