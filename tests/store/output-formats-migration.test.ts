import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../main/store/migrate.js';
import { openDatabase } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('migration 11: avif and pdf batches with output options', () => {
  it('keeps every batch, row and index, and accepts the new formats and options', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const before = openDatabase(file, { migrateTo: 10 });
    before
      .prepare(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           brand, today, status, created_at, api_key_id)
         VALUES ('bat_a', 'tmpl_x', '{}', '/t', 'square', 'webp', 'csv', '{}', '2026-01-01', 'running', 't', 'key_1')`,
      )
      .run();
    const insertRow = before.prepare(
      "INSERT INTO batch_rows (batch_id, row_index, status, record, file_name) VALUES ('bat_a', ?, 'succeeded', '{\"n\":1}', ?)",
    );
    for (let i = 0; i < 3; i++) insertRow.run(i, `row-${i}.webp`);
    const indexesBefore = before
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'batches' AND sql IS NOT NULL ORDER BY name",
      )
      .pluck()
      .all();
    before.close();

    const db = openDatabase(file, { migrateTo: 11 });
    expect(schemaVersion(db)).toBe(11);
    expect(
      db.prepare("SELECT format, api_key_id, output_options FROM batches WHERE id = 'bat_a'").get(),
    ).toEqual({
      format: 'webp',
      api_key_id: 'key_1',
      output_options: '{}',
    });
    expect(
      db.prepare('SELECT row_index, file_name FROM batch_rows ORDER BY row_index').all(),
    ).toEqual([
      { row_index: 0, file_name: 'row-0.webp' },
      { row_index: 1, file_name: 'row-1.webp' },
      { row_index: 2, file_name: 'row-2.webp' },
    ]);
    expect(
      db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'batches' AND sql IS NOT NULL ORDER BY name",
        )
        .pluck()
        .all(),
    ).toEqual(indexesBefore);
    for (const format of ['avif', 'pdf']) {
      db.prepare(
        `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
           brand, today, status, created_at, output_options)
         VALUES (?, 'tmpl_x', '{}', '/t', 'a4', ?, 'csv', '{}', '2026-01-01', 'queued', 't', '{"cropMarks":true}')`,
      ).run(`bat_${format}`, format);
    }
    expect(() =>
      db
        .prepare(
          `INSERT INTO batches (id, template_id, template_snapshot, assets_dir, target, format, source_type,
             brand, today, status, created_at)
           VALUES ('bat_gif', 'tmpl_x', '{}', '/t', 'a4', 'gif', 'csv', '{}', '2026-01-01', 'queued', 't')`,
        )
        .run(),
    ).toThrow(/CHECK constraint failed/);
    // The foreign key still holds: deleting the batch deletes its rows.
    db.prepare("DELETE FROM batches WHERE id = 'bat_a'").run();
    expect(db.prepare('SELECT COUNT(*) FROM batch_rows').pluck().get()).toBe(0);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
