import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePostgres, postgresSchemaVersion } from '../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { SharedWorkspaceRepository } from '../../main/data/postgres/shared-workspace-repository.js';
import type { CustomFontRecord } from '../../main/store/custom-fonts-repository.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => closePostgres(pool)));
});

async function emptyDatabase(): Promise<pg.Pool> {
  const server = implementations.postgres();
  const name = `workspace_${process.pid}_${pools.length}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} OWNER render`);
  } finally {
    await admin.end();
  }
  const url = Object.assign(new URL(server.url), { pathname: `/${name}` }).toString();
  const pool = openPostgres(url, { max: 6 });
  pools.push(pool);
  return pool;
}

const template = (id: string, name: string) => JSON.stringify({ id, name, layouts: {} });

function font(id: string, family: string, sha: string): CustomFontRecord {
  return {
    id,
    family,
    weight: 400,
    style: 'normal',
    format: 'ttf',
    size: 10,
    sha256: sha,
    scripts: ['latin'],
    licence: null,
    originalName: null,
    createdAt: new Date().toISOString(),
    fileName: `${sha}.ttf`,
    coverage: [[32, 126]],
  };
}

describe('the shared workspace in PostgreSQL', () => {
  it('is added by migration 4 to a database at version 3, keeping what was there', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, 3));
    await pool.query(`INSERT INTO settings (key, value) VALUES ('kept', 'yes')`);
    const result = await migratePostgres(pool, POSTGRES_MIGRATIONS);
    expect(result.applied).toEqual(POSTGRES_MIGRATIONS.slice(3).map((m) => m.version));
    expect(await postgresSchemaVersion(pool)).toBe(POSTGRES_MIGRATIONS.length);
    const kept = await pool.query<{ value: string }>(
      `SELECT value FROM settings WHERE key = 'kept'`,
    );
    expect(kept.rows[0]?.value).toBe('yes');
    const repository = new SharedWorkspaceRepository(pool);
    expect(await repository.head()).toBe(0);
    await repository.createTemplate({
      id: 'wtpl_a',
      templateJson: template('wtpl_a', 'A'),
      forkedFrom: 'tmpl_x',
      assets: ['photo.png'],
    });
    const changes = await repository.changesSince(0);
    expect(changes.templates.map((t) => [t.id, t.currentVersion])).toEqual([['wtpl_a', 1]]);
    expect(changes.versions[0]?.data).toBe(template('wtpl_a', 'A'));
    expect(changes.assets).toEqual([{ templateId: 'wtpl_a', name: 'photo.png' }]);
    expect(changes.head).toBe(await repository.head());
  });

  it('hands out every write exactly once, in commit order, to a reader that follows the change numbers', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    const repository = new SharedWorkspaceRepository(pool);
    await repository.createTemplate({
      id: 'wtpl_b',
      templateJson: template('wtpl_b', 'v1'),
      forkedFrom: null,
      assets: [],
    });
    let seen = (await repository.changesSince(0)).head;
    const versions: number[] = [];
    // Saves and reads interleaved: no version may be skipped or handed out twice.
    const saves = Array.from({ length: 12 }, (_, i) =>
      repository.saveVersion('wtpl_b', template('wtpl_b', `v${i + 2}`)),
    );
    const reads = (async () => {
      for (let i = 0; i < 20; i++) {
        const changes = await repository.changesSince(seen);
        versions.push(...changes.versions.map((v) => v.version));
        seen = changes.head;
      }
    })();
    await Promise.all([...saves, reads]);
    const rest = await repository.changesSince(seen);
    versions.push(...rest.versions.map((v) => v.version));
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
  });

  it('refuses a save on a replaced version and a second file for one font face, and keeps deletes as tombstones', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    const repository = new SharedWorkspaceRepository(pool);
    await repository.createTemplate({
      id: 'wtpl_c',
      templateJson: template('wtpl_c', 'v1'),
      forkedFrom: null,
      assets: [],
    });
    await repository.saveVersion('wtpl_c', template('wtpl_c', 'v2'), 1);
    await expect(
      repository.saveVersion('wtpl_c', template('wtpl_c', 'v2b'), 1),
    ).rejects.toMatchObject({ code: 'version-conflict' });
    await expect(
      repository.saveVersion('wtpl_none', template('wtpl_none', 'x')),
    ).rejects.toMatchObject({ code: 'not-found' });

    await repository.insertFont(font('font_a', 'Acme', 'aa'));
    await expect(repository.insertFont(font('font_b', 'ACME', 'bb'))).rejects.toMatchObject({
      code: 'conflict',
    });
    const before = await repository.head();
    expect(await repository.removeFont('font_a')).toBe(true);
    expect(await repository.removeFont('font_a')).toBe(false);
    const changes = await repository.changesSince(before);
    expect(changes.fonts.map((f) => [f.id, f.deletedAt !== null])).toEqual([['font_a', true]]);
    // The face is free again once its font is deleted.
    await repository.insertFont(font('font_b', 'ACME', 'bb'));

    expect(await repository.markTemplateDeleted('wtpl_c')).toBe(true);
    await expect(repository.saveVersion('wtpl_c', template('wtpl_c', 'v3'))).rejects.toMatchObject({
      code: 'not-found',
    });
  });
});
