import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePostgres, postgresSchemaVersion } from '../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { SharedWorkspaceRepository } from '../../main/data/postgres/shared-workspace-repository.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { createStore } from '../../main/store/create-store.js';
import type { CustomFontRecord } from '../../main/data/types/custom-font-record.js';
import { newBatch, sourceRecords } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => closePostgres(pool)));
});

async function emptyDatabase(): Promise<pg.Pool> {
  const pool = openPostgres(await implementations.emptyDatabaseUrl(), { max: 6 });
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

  it('is given purge tombstones by migration 8, with templates deleted before it purgeable', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 7 });
    const before = new SharedWorkspaceRepository(pool);
    await before.createTemplate({
      id: 'wtpl_old',
      templateJson: template('wtpl_old', 'v1'),
      forkedFrom: null,
      assets: ['upload-b.png'],
    });
    await pool.query(
      "UPDATE workspace_templates SET deleted_at = now() - interval '1 hour' WHERE id = 'wtpl_old'",
    );
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { to: 8 });
    expect(await postgresSchemaVersion(pool)).toBe(8);
    const repository = new SharedWorkspaceRepository(pool);
    expect(await repository.purgeableTemplates(60_000)).toEqual(['wtpl_old']);
    expect(await repository.markTemplatePurged('wtpl_old')).toBe(true);
    const changes = await repository.changesSince(0);
    expect(changes.templates.map((t) => [t.id, t.purgedAt !== null])).toEqual([['wtpl_old', true]]);
    expect(changes.versions).toEqual([]);
    expect(changes.assets).toEqual([]);
  });

  it('purges a deleted template no batch names once its grace has passed, and a copy drops it', async () => {
    const pool = await emptyDatabase();
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    expect(await postgresSchemaVersion(pool)).toBe(POSTGRES_MIGRATIONS.length);
    const repository = new SharedWorkspaceRepository(pool);
    for (const id of ['wtpl_gone', 'wtpl_named', 'wtpl_kept'])
      await repository.createTemplate({
        id,
        templateJson: template(id, id),
        forkedFrom: null,
        assets: ['upload-a.png'],
      });
    await repository.saveVersion('wtpl_gone', template('wtpl_gone', 'v2'), 1);
    // A batch names wtpl_named: it may be replayed, so its template stays.
    const data = postgresCoreData(pool);
    await data.commands.createBatch({
      batch: newBatch('bat_named', 1, { templateId: 'wtpl_named', status: 'running' }),
      records: sourceRecords(1),
    });
    const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-workspace-copy-'));
    const copy = createStore(copyDir);
    try {
      copy.workspaceMirror.apply(await repository.changesSince(0));
      const seen = await repository.head();
      expect(await repository.markTemplateDeleted('wtpl_gone')).toBe(true);
      expect(await repository.markTemplateDeleted('wtpl_named')).toBe(true);
      // Within the grace nothing is purgeable; after it, only the template no batch names.
      expect(await repository.purgeableTemplates(60_000)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await repository.purgeableTemplates(10)).toEqual(['wtpl_gone']);
      expect(await repository.markTemplatePurged('wtpl_gone')).toBe(true);
      expect(await repository.markTemplatePurged('wtpl_gone')).toBe(false);
      expect(await repository.markTemplatePurged('wtpl_named')).toBe(false);
      expect(await repository.purgeableTemplates(10)).toEqual([]);
      const left = await pool.query<{ template_id: string; n: string }>(
        `SELECT template_id, count(*) AS n FROM (
           SELECT template_id FROM workspace_template_versions
           UNION ALL SELECT template_id FROM workspace_template_assets) AS rows
         GROUP BY template_id ORDER BY template_id`,
      );
      expect(left.rows.map((r) => [r.template_id, Number(r.n)])).toEqual([
        ['wtpl_kept', 2],
        ['wtpl_named', 2],
      ]);

      // A copy that follows the changes drops the purged template; one starting now never has it.
      const changes = await repository.changesSince(seen);
      expect(changes.templates.map((t) => [t.id, t.purgedAt !== null])).toEqual([
        ['wtpl_named', false],
        ['wtpl_gone', true],
      ]);
      expect(copy.workspaceMirror.apply(changes).purgedTemplates).toEqual(['wtpl_gone']);
      const ids = () =>
        copy.db.prepare<[], string>('SELECT id FROM workspace_templates ORDER BY id').pluck().all();
      expect(ids()).toEqual(['wtpl_kept', 'wtpl_named']);
      expect(
        copy.db
          .prepare(
            "SELECT count(*) FROM workspace_template_versions WHERE template_id = 'wtpl_gone'",
          )
          .pluck()
          .get(),
      ).toBe(0);
      const fresh = createStore(path.join(copyDir, 'fresh'));
      try {
        fresh.workspaceMirror.apply(await repository.changesSince(0));
        expect(
          fresh.db
            .prepare<[], string>('SELECT id FROM workspace_templates ORDER BY id')
            .pluck()
            .all(),
        ).toEqual(['wtpl_kept', 'wtpl_named']);
      } finally {
        fresh.close();
      }
    } finally {
      copy.close();
      fs.rmSync(copyDir, { recursive: true, force: true });
    }
  });
});
