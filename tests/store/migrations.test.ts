import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../main/store/migrate.js';
import type { Migration } from '../../main/store/migrate.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../main/store/migrations/index.js';
import { openDatabase } from '../../main/store/open-database.js';
import type { Database } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

function tables(db: Database): string[] {
  return db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all();
}

/** Opens at version `from`, lets the test seed, closes, and reopens at `to`. */
function migrateWithSeed(from: number, to: number, seed: (db: Database) => void): Database {
  const file = path.join(tempDir(), 'nested', 'render-desk.db');
  const before = openDatabase(file, { migrateTo: from });
  expect(schemaVersion(before)).toBe(from);
  seed(before);
  before.close();
  return openDatabase(file, { migrateTo: to });
}

/** A batch as the batches table holds it from version 5 on (the parent of batch rows). */
function insertBatch(db: Database, status = 'queued'): void {
  db.prepare(
    `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
       brand, today, status, created_at)
     VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', '{}', '2026-01-01', ?, 't')`,
  ).run(status);
}

describe('openDatabase', () => {
  it('creates the parent folder and applies every migration by default', () => {
    const db = openDatabase(path.join(tempDir(), 'a', 'b', 'render-desk.db'));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    const recorded = db
      .prepare('SELECT version, name FROM schema_migrations ORDER BY version')
      .all();
    expect(recorded).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    db.close();
  });

  it('keeps synchronous=FULL, WAL, foreign keys and the busy timeout when a WAL database is reopened', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('is a no-op to reopen a database that is up to date', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(
      LATEST_SCHEMA_VERSION,
    );
    db.close();
  });

  it('refuses a database written by a newer version of the app', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const db = openDatabase(file);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(file)).toThrow(/newer than this app knows/);
  });
});

describe('migrate', () => {
  it('rolls a failing migration back entirely and stays at the previous version', () => {
    const db = openDatabase(path.join(tempDir(), 'render-desk.db'), { migrateTo: 0 });
    const broken: Migration[] = [
      {
        version: 1,
        name: 'half-done',
        up(target) {
          target.exec('CREATE TABLE first_half (id INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrate(db, broken)).toThrow('boom');
    expect(schemaVersion(db)).toBe(0);
    expect(tables(db)).not.toContain('first_half');
    expect(db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(0);
    db.close();
  });

  it('rejects gaps in the migration list and going backwards', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const db = openDatabase(file);
    expect(() => migrate(db, [{ version: 2, name: 'gap', up: () => {} }])).toThrow(/expected 1/);
    expect(() => migrate(db, MIGRATIONS, { to: 1 })).toThrow(/never go back/);
    db.close();
  });
});

describe('0001-initial', () => {
  it('creates the core tables with an empty account and enforces the ledger constraints', () => {
    const db = migrateWithSeed(0, 1, () => {});
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'settings',
        'api_keys',
        'ledger',
        'account',
        'renders',
        'idempotency_keys',
      ]),
    );
    expect(db.prepare('SELECT * FROM account').all()).toEqual([
      { id: 1, granted: 0, debited: 0, held: 0 },
    ]);
    const insert = db.prepare(
      "INSERT INTO ledger (kind, amount, render_id, batch_id, row_index, created_at) VALUES (?, ?, ?, ?, ?, 'now')",
    );
    expect(() => insert.run('refund', 1, null, null, null)).toThrow(/CHECK/);
    expect(() => insert.run('grant', 0, null, null, null)).toThrow(/CHECK/);
    insert.run('debit', 1, 'rnd_a', null, null);
    expect(() => insert.run('debit', 1, 'rnd_a', null, null)).toThrow(/UNIQUE/);
    insert.run('debit', 1, 'rnd_b', 'bat_1', 0);
    expect(() => insert.run('debit', 1, 'rnd_c', 'bat_1', 0)).toThrow(/UNIQUE/);
    // Holds and releases may repeat per batch row; only debits are unique.
    insert.run('release', 1, 'rnd_b', 'bat_1', 0);
    insert.run('release', 1, 'rnd_b', 'bat_1', 0);
    expect(() => db.prepare('INSERT INTO account (id) VALUES (2)').run()).toThrow(/CHECK|UNIQUE/);
    expect(() => db.prepare('UPDATE account SET debited = 5').run()).toThrow(/CHECK/);
    db.close();
  });
});

describe('0002-brand-profiles', () => {
  it('adds brand_profiles with at most one default and keeps the existing data', () => {
    const db = migrateWithSeed(1, 2, (before) => {
      expect(tables(before)).not.toContain('brand_profiles');
      before.prepare("INSERT INTO settings (key, value) VALUES ('theme', 'dark')").run();
      before
        .prepare(
          "INSERT INTO ledger (kind, amount, created_at) VALUES ('grant', 7, '2025-01-01T00:00:00.000Z')",
        )
        .run();
      before.prepare('UPDATE account SET granted = 7').run();
    });
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'theme'").pluck().get()).toBe('dark');
    expect(db.prepare('SELECT granted FROM account').pluck().get()).toBe(7);

    const insert = db.prepare(
      "INSERT INTO brand_profiles (id, name, is_default, data, created_at, updated_at) VALUES (?, ?, ?, ?, 't', 't')",
    );
    insert.run('brand_a', 'A', 1, '{}');
    insert.run('brand_b', 'B', 0, '{}');
    insert.run('brand_c', 'C', 0, '{}');
    expect(() => insert.run('brand_d', 'D', 1, '{}')).toThrow(/UNIQUE/);
    expect(() => insert.run('brand_e', 'E', 0, 'not json')).toThrow(/CHECK/);
    db.close();
  });
});

describe('0003-subscription', () => {
  it('adds an active subscription with no end date and keeps brand profiles and credits', () => {
    const db = migrateWithSeed(2, 3, (before) => {
      expect(tables(before)).not.toContain('subscription');
      before
        .prepare(
          `INSERT INTO brand_profiles (id, name, is_default, data, created_at, updated_at)
           VALUES ('brand_x', 'Default', 1, '{"name":"Acme"}', 't', 't')`,
        )
        .run();
      before
        .prepare("INSERT INTO ledger (kind, amount, created_at) VALUES ('grant', 3, 't')")
        .run();
      before.prepare('UPDATE account SET granted = 3').run();
    });
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare('SELECT status, expires_at FROM subscription').all()).toEqual([
      { status: 'active', expires_at: null },
    ]);
    expect(() => db.prepare("UPDATE subscription SET status = 'paused'").run()).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare("INSERT INTO subscription (id, status, updated_at) VALUES (2, 'active', 't')")
        .run(),
    ).toThrow(/CHECK/);
    expect(db.prepare('SELECT data FROM brand_profiles').pluck().get()).toBe('{"name":"Acme"}');
    expect(db.prepare('SELECT granted FROM account').pluck().get()).toBe(3);
    db.close();
  });
});

describe('0004-uploads', () => {
  it('adds uploads with a kind check and keeps the subscription', () => {
    const db = migrateWithSeed(3, 4, (before) => {
      expect(tables(before)).not.toContain('uploads');
      before.prepare("UPDATE subscription SET status = 'lapsed'").run();
    });
    expect(schemaVersion(db)).toBe(4);
    db.prepare(
      `INSERT INTO uploads (id, kind, filename, path, bytes, created_at, expires_at)
       VALUES ('upl_a', 'csv', 'a.csv', '/x/a.csv', 10, 't', 't2')`,
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO uploads (id, kind, filename, path, bytes, created_at) VALUES ('upl_b', 'exe', 'b', '/b', 1, 't')",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(db.prepare('SELECT status FROM subscription').pluck().get()).toBe('lapsed');
    db.close();
  });
});

describe('0005-batches', () => {
  it('adds batches and rows whose rows go with their batch, keeping uploads', () => {
    const db = migrateWithSeed(4, 5, (before) => {
      before
        .prepare(
          `INSERT INTO uploads (id, kind, filename, path, bytes, created_at)
           VALUES ('upl_a', 'csv', 'a.csv', '/x/a.csv', 10, 't')`,
        )
        .run();
    });
    expect(schemaVersion(db)).toBe(5);
    insertBatch(db);
    db.prepare(
      "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 0, 'pending', '{}')",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 1, 'done', '{}')",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare("DELETE FROM batches WHERE id = 'bat_a'").run();
    expect(db.prepare('SELECT COUNT(*) FROM batch_rows').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM uploads').pluck().get()).toBe(1);
    db.close();
  });
});

describe('0006-batch-row-file-names', () => {
  it('adds a file name to batch rows and keeps the rows there are', () => {
    const db = migrateWithSeed(5, 6, (before) => {
      insertBatch(before);
      before
        .prepare(
          "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 0, 'pending', '{}')",
        )
        .run();
    });
    expect(schemaVersion(db)).toBe(6);
    expect(db.prepare('SELECT row_index, file_name FROM batch_rows').all()).toEqual([
      { row_index: 0, file_name: null },
    ]);
    db.prepare("UPDATE batch_rows SET file_name = 'SKU-1.png' WHERE batch_id = 'bat_a'").run();
    expect(db.prepare('SELECT file_name FROM batch_rows').pluck().get()).toBe('SKU-1.png');
    db.close();
  });
});

describe('0007-workspace-templates', () => {
  it('adds workspace templates with their versions and leaves old batches unpinned', () => {
    const db = migrateWithSeed(6, 7, (before) => {
      expect(tables(before)).not.toContain('workspace_templates');
      insertBatch(before, 'succeeded');
    });
    expect(schemaVersion(db)).toBe(7);
    expect(tables(db)).toEqual(
      expect.arrayContaining(['workspace_templates', 'workspace_template_versions']),
    );
    expect(db.prepare('SELECT id, template_version FROM batches').all()).toEqual([
      { id: 'bat_a', template_version: null },
    ]);
    const insertTemplate = db.prepare(
      "INSERT INTO workspace_templates (id, forked_from, current_version, created_at, updated_at) VALUES (?, 'tmpl_x', 1, 't', 't')",
    );
    insertTemplate.run('wtpl_a');
    expect(() => insertTemplate.run('tmpl_b')).toThrow(/CHECK/);
    const insertVersion = db.prepare(
      "INSERT INTO workspace_template_versions (template_id, version, data, created_at) VALUES (?, ?, ?, 't')",
    );
    insertVersion.run('wtpl_a', 1, '{}');
    expect(() => insertVersion.run('wtpl_a', 1, '{}')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insertVersion.run('wtpl_a', 2, 'not json')).toThrow(/CHECK/);
    expect(() => insertVersion.run('wtpl_missing', 1, '{}')).toThrow(/FOREIGN KEY/);
    db.close();
  });
});

describe('0008-custom-fonts', () => {
  it('adds custom fonts with one row per family, weight and style, keeping workspace templates', () => {
    const db = migrateWithSeed(7, 8, (before) => {
      expect(tables(before)).not.toContain('custom_fonts');
      before
        .prepare(
          "INSERT INTO workspace_templates (id, forked_from, current_version, created_at, updated_at) VALUES ('wtpl_a', NULL, 1, 't', 't')",
        )
        .run();
    });
    expect(schemaVersion(db)).toBe(8);
    expect(db.prepare('SELECT id FROM workspace_templates').pluck().all()).toEqual(['wtpl_a']);
    const insert = db.prepare(
      `INSERT INTO custom_fonts (id, family, weight, style, format, file_name, sha256, size,
         coverage, scripts, created_at)
       VALUES (@id, @family, @weight, @style, @format, 'f.ttf', 'abc', 10, @coverage, '["latin"]', 't')`,
    );
    const font = {
      id: 'font_a',
      family: 'Acme Sans',
      weight: 400,
      style: 'normal',
      format: 'ttf',
      coverage: '[[32,126]]',
    };
    insert.run(font);
    insert.run({ ...font, id: 'font_b', weight: 700 });
    insert.run({ ...font, id: 'font_c', style: 'italic' });
    // The family is matched without regard to case, as the engine resolves families.
    expect(() => insert.run({ ...font, id: 'font_d', family: 'ACME SANS' })).toThrow(/UNIQUE/);
    expect(() => insert.run({ ...font, id: 'x_e', family: 'Other' })).toThrow(/CHECK/);
    expect(() => insert.run({ ...font, id: 'font_f', family: 'Other', weight: 950 })).toThrow(
      /CHECK/,
    );
    expect(() => insert.run({ ...font, id: 'font_g', family: 'Other', format: 'ttc' })).toThrow(
      /CHECK/,
    );
    expect(() => insert.run({ ...font, id: 'font_h', family: 'Other', coverage: 'nope' })).toThrow(
      /CHECK/,
    );
    db.close();
  });
});

describe('0009-batch-row-render-ids', () => {
  it('gives every batch row without a render id one of its own, keeping the ids there are', () => {
    const db = migrateWithSeed(8, 9, (before) => {
      insertBatch(before, 'running');
      const row = before.prepare(
        "INSERT INTO batch_rows (batch_id, row_index, status, record, render_id) VALUES ('bat_a', ?, ?, '{}', ?)",
      );
      row.run(0, 'succeeded', 'rnd_kept0000000000');
      row.run(1, 'failed', null);
      row.run(2, 'pending', null);
    });
    expect(schemaVersion(db)).toBe(9);
    const ids = db
      .prepare<[], string>('SELECT render_id FROM batch_rows ORDER BY row_index')
      .pluck()
      .all();
    expect(ids[0]).toBe('rnd_kept0000000000');
    for (const id of ids.slice(1)) expect(id).toMatch(/^rnd_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(3);
    db.close();
  });
});

describe('0010-api-key-scopes', () => {
  it('gives admin keys the admin scope and every other key the render scope', () => {
    const db = migrateWithSeed(9, 10, (before) => {
      const key = before.prepare(
        `INSERT INTO api_keys (id, name, prefix, hash, admin, created_at, revoked_at)
         VALUES (?, ?, 'rdk_12345678', ?, ?, 't', ?)`,
      );
      key.run('key_admin', 'CI', 'hash-a', 1, null);
      key.run('key_script', 'Website', 'hash-b', 0, null);
      key.run('key_old', 'Old admin', 'hash-c', 1, '2026-01-01T00:00:00.000Z');
    });
    expect(schemaVersion(db)).toBe(10);
    expect(
      db.prepare('SELECT id, name, scope, revoked_at FROM api_keys ORDER BY id').all(),
    ).toEqual([
      { id: 'key_admin', name: 'CI', scope: 'admin', revoked_at: null },
      { id: 'key_old', name: 'Old admin', scope: 'admin', revoked_at: '2026-01-01T00:00:00.000Z' },
      { id: 'key_script', name: 'Website', scope: 'render', revoked_at: null },
    ]);
    const columns = db
      .prepare<[], string>("SELECT name FROM pragma_table_info('api_keys')")
      .pluck()
      .all();
    expect(columns).not.toContain('admin');
    expect(() =>
      db
        .prepare(
          "INSERT INTO api_keys (id, name, prefix, hash, scope, created_at) VALUES ('key_x', 'x', 'p', 'h', 'owner', 't')",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.close();
  });
});

describe('0014-webhooks', () => {
  it('adds webhooks and their delivery queue, keeping batches, one delivery per webhook and event', () => {
    const db = migrateWithSeed(13, 14, (before) => insertBatch(before, 'succeeded'));
    expect(schemaVersion(db)).toBe(14);
    expect(db.prepare('SELECT id, status FROM batches').all()).toEqual([
      { id: 'bat_a', status: 'succeeded' },
    ]);
    expect(tables(db)).toEqual(expect.arrayContaining(['webhooks', 'webhook_deliveries']));
    db.prepare(
      `INSERT INTO webhooks (id, url, secret, events, created_at)
       VALUES ('whk_a', 'http://127.0.0.1:9/hook', 'whsec_x', '["batch.finished"]', 't')`,
    ).run();
    const delivery = db.prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status, created_at)
       VALUES (?, 'whk_a', 'batch.finished:bat_a:t', 'batch.finished', '{}', 'pending', 't')`,
    );
    delivery.run('whd_1');
    expect(() => delivery.run('whd_2')).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status, created_at)
           VALUES ('whd_3', 'whk_a', 'k2', 'batch.finished', '{}', 'lost', 't')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    // A webhook's log goes with it.
    db.prepare("DELETE FROM webhooks WHERE id = 'whk_a'").run();
    expect(db.prepare('SELECT COUNT(*) FROM webhook_deliveries').pluck().get()).toBe(0);
    db.close();
  });
});
