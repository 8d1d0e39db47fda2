import {
  toCustomFontRecord,
  toCustomFontRow,
  type CustomFontRow,
} from '../data/rows/custom-font-rows.js';
import type { CustomFontRecord } from '../data/types/custom-font-record.js';
import type { Database } from './open-database.js';

export interface CustomFontsRepository {
  insert(record: CustomFontRecord): void;
  get(id: string): CustomFontRecord | null;
  bySha256(sha256: string): CustomFontRecord | null;
  /** The face of a family (case-insensitive), weight and style, if one is installed. */
  face(family: string, weight: number, style: 'normal' | 'italic'): CustomFontRecord | null;
  /** Every custom font, by family then weight, style. */
  list(): CustomFontRecord[];
  remove(id: string): boolean;
}

export function createCustomFontsRepository(db: Database): CustomFontsRepository {
  const insert = db.prepare(
    `INSERT INTO custom_fonts (id, family, weight, style, format, file_name, original_name, sha256,
       size, coverage, scripts, licence, created_at)
     VALUES (@id, @family, @weight, @style, @format, @file_name, @original_name, @sha256, @size,
       @coverage, @scripts, @licence, @created_at)`,
  );
  const selectById = db.prepare<[string], CustomFontRow>('SELECT * FROM custom_fonts WHERE id = ?');
  const selectBySha = db.prepare<[string], CustomFontRow>(
    'SELECT * FROM custom_fonts WHERE sha256 = ? ORDER BY created_at LIMIT 1',
  );
  const selectFace = db.prepare<[string, number, string], CustomFontRow>(
    'SELECT * FROM custom_fonts WHERE family = ? COLLATE NOCASE AND weight = ? AND style = ?',
  );
  const selectAll = db.prepare<[], CustomFontRow>(
    'SELECT * FROM custom_fonts ORDER BY family COLLATE NOCASE, weight, style, id',
  );
  const deleteById = db.prepare<[string]>('DELETE FROM custom_fonts WHERE id = ?');

  return {
    insert(record) {
      insert.run(toCustomFontRow(record));
    },
    get: (id) => toRecord(selectById.get(id)),
    bySha256: (sha256) => toRecord(selectBySha.get(sha256)),
    face: (family, weight, style) => toRecord(selectFace.get(family, weight, style)),
    list: () => selectAll.all().map(toCustomFontRecord),
    remove: (id) => deleteById.run(id).changes === 1,
  };
}

function toRecord(row: CustomFontRow | undefined): CustomFontRecord | null {
  return row ? toCustomFontRecord(row) : null;
}
