import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../main/data/postgres/migrations/index.js';
import { openPostgres } from '../../main/data/postgres/open-postgres.js';
import { newBatch, sourceRecords } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

describe.each(implementations.all)('API key scopes on %s', (_name, open) => {
  it("stores each key's scope, and an ensured key is reinstated with the scope it is given", async () => {
    const data = await open();
    const scopes = ['read', 'render', 'templates', 'admin'] as const;
    for (const scope of scopes) {
      const { record, secret } = await data.apiKeys.create({ name: scope, scope });
      expect(record).toMatchObject({ scope, admin: scope === 'admin' });
      expect(await data.apiKeys.authenticate(secret)).toEqual(record);
    }
    // Keys made in the same millisecond list in id order: compare the scopes, not their order.
    expect((await data.apiKeys.list()).map((key) => key.scope).sort()).toEqual([...scopes].sort());

    const secret = 'ci-secret-0123456789';
    const first = await data.apiKeys.ensure(secret, { name: 'env', scope: 'render' });
    expect(first.scope).toBe('render');
    await data.apiKeys.revoke(first.id);
    const again = await data.apiKeys.ensure(secret, { name: 'env', scope: 'admin' });
    expect(again).toMatchObject({ id: first.id, scope: 'admin', admin: true, revokedAt: null });
  });

  it("lists one key's batches and ledger entries when asked for that key", async () => {
    const data = await open();
    await data.ledger.grant(10, { note: 'test credits' });
    const made: Record<string, string> = {};
    for (const key of ['key_alice', 'key_bob']) {
      const id = data.batches.newId();
      await data.commands.createBatch({
        batch: newBatch(id, 2, { apiKeyId: key }),
        records: sourceRecords(2),
      });
      made[key] = id;
    }
    await data.commands.commitSingleRender({
      renderId: 'rnd_alice000000001',
      apiKeyId: 'key_alice',
      templateId: 'tmpl_product_promo',
      ratio: 'square',
      format: 'png',
      bytes: 100,
    });

    const ids = async (apiKeyId?: string) =>
      (await data.batches.list({ limit: 10, ...(apiKeyId ? { apiKeyId } : {}) })).map((b) => b.id);
    expect(await ids('key_alice')).toEqual([made.key_alice]);
    expect(await ids('key_bob')).toEqual([made.key_bob]);
    expect((await ids()).sort()).toEqual([made.key_alice, made.key_bob].sort());

    const entries = await data.ledger.list({ limit: 50, apiKeyId: 'key_alice' });
    expect(entries.entries.map((e) => [e.kind, e.batchId ?? e.renderId])).toEqual([
      ['debit', 'rnd_alice000000001'],
      ['hold', made.key_alice],
    ]);
    expect((await data.ledger.list({ limit: 50 })).entries).toHaveLength(4);
  });
});

describe('PostgreSQL migration 2 (api-key-scopes)', () => {
  it('gives admin keys the admin scope and every other key the render scope', async () => {
    const url = await emptyDatabase();
    const pool = openPostgres(url, { max: 2 });
    pools.push(pool);
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 1 });
    const insert = `INSERT INTO api_keys (id, name, prefix, hash, admin, created_at)
                    VALUES ($1, $2, 'rdk_12345678', $3, $4, now())`;
    await pool.query(insert, ['key_admin', 'CI', 'hash-a', true]);
    await pool.query(insert, ['key_script', 'Website', 'hash-b', false]);

    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 2 });
    const keys = await pool.query('SELECT id, scope FROM api_keys ORDER BY id');
    expect(keys.rows).toEqual([
      { id: 'key_admin', scope: 'admin' },
      { id: 'key_script', scope: 'render' },
    ]);
    const columns = await pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'api_keys'",
    );
    expect(columns.rows.map((row) => row.column_name)).not.toContain('admin');
    await expect(
      pool.query(
        `INSERT INTO api_keys (id, name, prefix, hash, scope, created_at)
         VALUES ('key_x', 'x', 'p', 'h', 'owner', now())`,
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

/** An empty database (no schema at all) on the run's PostgreSQL server. */
function emptyDatabase(): Promise<string> {
  return implementations.emptyDatabaseUrl();
}
