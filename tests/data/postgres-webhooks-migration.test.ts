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

describe('PostgreSQL migration 12: outgoing webhooks and their delivery queue', () => {
  it('adds the tables to a database of version 11, one delivery per webhook and event key', async () => {
    const pool = openPostgres(await implementations.emptyDatabaseUrl(), { max: 2 });
    pools.push(pool);
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 11 });
    await pool.query("INSERT INTO settings (key, value) VALUES ('kept', 'yes')");
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 12 });
    expect(await postgresSchemaVersion(pool)).toBe(12);
    expect((await pool.query("SELECT value FROM settings WHERE key = 'kept'")).rows).toEqual([
      { value: 'yes' },
    ]);

    await pool.query(
      `INSERT INTO webhooks (id, url, secret, events, created_at)
       VALUES ('whk_a', 'http://127.0.0.1:9/h', 'whsec_x', '["batch.finished"]', now())`,
    );
    const deliver = (id: string, key: string, status = 'pending') =>
      pool.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status,
           next_attempt_at, created_at)
         VALUES ($1, 'whk_a', $2, 'batch.finished', '{"a":1}', $3, 0, now())`,
        [id, key, status],
      );
    await deliver('whd_1', 'batch.finished:bat_1:t');
    await expect(deliver('whd_2', 'batch.finished:bat_1:t')).rejects.toThrow(/unique/);
    await expect(deliver('whd_3', 'k', 'lost')).rejects.toThrow(/check constraint/);
    const row = await pool.query(
      'SELECT enabled, attempts, description FROM webhooks, webhook_deliveries',
    );
    expect(row.rows).toEqual([{ enabled: true, attempts: 0, description: '' }]);
    // A webhook's log goes with it.
    await pool.query("DELETE FROM webhooks WHERE id = 'whk_a'");
    expect((await pool.query('SELECT id FROM webhook_deliveries')).rows).toEqual([]);
  });
});
