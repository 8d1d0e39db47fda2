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

describe('PostgreSQL migration 7: batches keep their sheet options', () => {
  it('gives a batch of version 6 no sheet options and keeps the options of a new one as jsonb', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 6 });
    await pool.query(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         brand, today, status, created_at, output_options)
       VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'badge', 'pdf', 'csv', '{}', '2026-01-01', 'succeeded', now(), '{"cropMarks":true}')`,
    );
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 7 });
    expect(await postgresSchemaVersion(pool)).toBe(7);
    const old = await pool.query(
      "SELECT output_options, sheet_options FROM batches WHERE id = 'bat_a'",
    );
    expect(old.rows[0]).toEqual({ output_options: { cropMarks: true }, sheet_options: null });
    await pool.query(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         brand, today, status, created_at, sheet_options)
       VALUES ('bat_b', 'tmpl_x', '{}', '/t', 'badge', 'pdf', 'csv', '{}', '2026-01-01', 'queued', now(), $1)`,
      [JSON.stringify({ preset: 'a6-on-a4', duplex: 'long-edge' })],
    );
    const fresh = await pool.query("SELECT sheet_options FROM batches WHERE id = 'bat_b'");
    expect(fresh.rows[0]?.sheet_options).toEqual({ preset: 'a6-on-a4', duplex: 'long-edge' });
  });
});
