import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../main/store/migrate.js';
import { openDatabase } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('migration 13: batches keep their sheet options', () => {
  it('leaves batches of version 12 without sheet options, and keeps valid JSON only', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const before = openDatabase(file, { migrateTo: 12 });
    before
      .prepare(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           brand, today, status, created_at, output_options)
         VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'badge', 'pdf', 'csv', '{}', '2026-01-01', 'succeeded', 't', '{"cropMarks":true}')`,
      )
      .run();
    before
      .prepare(
        "INSERT INTO batch_rows (batch_id, row_index, status, record) VALUES ('bat_a', 0, 'succeeded', '{}')",
      )
      .run();
    before.close();

    const db = openDatabase(file, { migrateTo: 13 });
    expect(schemaVersion(db)).toBe(13);
    expect(
      db.prepare("SELECT output_options, sheet_options FROM batches WHERE id = 'bat_a'").get(),
    ).toEqual({ output_options: '{"cropMarks":true}', sheet_options: null });
    expect(db.prepare('SELECT COUNT(*) FROM batch_rows').pluck().get()).toBe(1);
    const insert = db.prepare(
      `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
         brand, today, status, created_at, sheet_options)
       VALUES (?, 'tmpl_x', '{}', '/t', 'badge', 'pdf', 'csv', '{}', '2026-01-01', 'queued', 't', ?)`,
    );
    insert.run('bat_b', '{"preset":"a6-on-a4","duplex":"long-edge"}');
    expect(db.prepare("SELECT sheet_options FROM batches WHERE id = 'bat_b'").pluck().get()).toBe(
      '{"preset":"a6-on-a4","duplex":"long-edge"}',
    );
    expect(() => insert.run('bat_c', '{not json')).toThrow(/CHECK constraint failed/);
    db.close();
  });
});
