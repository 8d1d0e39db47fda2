import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../main/store/migrate.js';
import { openDatabase } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('migration 15: batches keep the layouts of a several-sizes run', () => {
  it('leaves batches of version 14 with one layout, and keeps a JSON array only', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const before = openDatabase(file, { migrateTo: 14 });
    before
      .prepare(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           brand, today, status, created_at)
         VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', '{}', '2026-01-01', 'succeeded', 't')`,
      )
      .run();
    before
      .prepare(
        "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 0, 'succeeded', '{}')",
      )
      .run();
    before.close();

    const db = openDatabase(file, { migrateTo: 15 });
    expect(schemaVersion(db)).toBe(15);
    expect(db.prepare("SELECT target, targets FROM batches WHERE id = 'bat_a'").get()).toEqual({
      target: 'square',
      targets: null,
    });
    expect(db.prepare('SELECT COUNT(*) FROM batch_rows').pluck().get()).toBe(1);
    const insert = db.prepare(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         brand, today, status, created_at, targets)
       VALUES (?, 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', '{}', '2026-01-01', 'queued', 't', ?)`,
    );
    insert.run('bat_b', '["square","story"]');
    expect(db.prepare("SELECT targets FROM batches WHERE id = 'bat_b'").pluck().get()).toBe(
      '["square","story"]',
    );
    expect(() => insert.run('bat_c', '{"square":true}')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('bat_d', '[not json')).toThrow(/CHECK constraint failed/);
    db.close();
  });
});
