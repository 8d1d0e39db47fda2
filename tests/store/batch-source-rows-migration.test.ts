import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../main/store/migrate.js';
import { openDatabase } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('migration 16: batches keep the rows of their upload they draw', () => {
  it('leaves batches of version 15 drawing every row, and keeps a JSON array only', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const before = openDatabase(file, { migrateTo: 15 });
    before
      .prepare(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           source_ref, brand, today, status, created_at)
         VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', 'upl_a', '{}', '2026-01-01', 'partial', 't')`,
      )
      .run();
    before
      .prepare(
        "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 0, 'failed', '{}')",
      )
      .run();
    before.close();

    const db = openDatabase(file, { migrateTo: 16 });
    expect(schemaVersion(db)).toBe(16);
    expect(
      db.prepare("SELECT source_ref, source_rows FROM batches WHERE id = 'bat_a'").get(),
    ).toEqual({ source_ref: 'upl_a', source_rows: null });
    expect(db.prepare('SELECT COUNT(*) FROM batch_rows').pluck().get()).toBe(1);
    const insert = db.prepare(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         source_ref, brand, today, status, created_at, source_rows)
       VALUES (?, 'tmpl_x', '{}', '/t', 'square', 'png', 'csv', 'upl_a', '{}', '2026-01-01', 'queued', 't', ?)`,
    );
    insert.run('bat_b', '[1,3]');
    expect(db.prepare("SELECT source_rows FROM batches WHERE id = 'bat_b'").pluck().get()).toBe(
      '[1,3]',
    );
    expect(() => insert.run('bat_c', '{"1":true}')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('bat_d', '[1,')).toThrow(/CHECK constraint failed/);
    db.close();
  });
});
