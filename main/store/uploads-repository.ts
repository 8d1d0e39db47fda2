import { newId } from '../data/ids.js';
import { jsonText } from '../data/rows/json-column.js';
import { toUploadRecord, type UploadRow } from '../data/rows/upload-rows.js';
import type { UploadsRepository } from '../data/types/uploads.js';
import type { Database } from './open-database.js';

export function createUploadsRepository(db: Database): UploadsRepository {
  const insert = db.prepare(
    `INSERT INTO uploads (id, kind, filename, path, bytes, content_type, info, api_key_id, created_at, expires_at)
     VALUES (@id, @kind, @filename, @path, @bytes, @contentType, @info, @apiKeyId, @createdAt, @expiresAt)`,
  );
  const byId = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?');
  const markUsed = db.prepare('UPDATE uploads SET expires_at = NULL WHERE id = ?');
  const setInfo = db.prepare('UPDATE uploads SET info = ? WHERE id = ?');
  const expired = db.prepare<[string], { id: string; path: string }>(
    'SELECT id, path FROM uploads WHERE expires_at IS NOT NULL AND expires_at <= ?',
  );
  const remove = db.prepare('DELETE FROM uploads WHERE id = ?');
  const purge = db.transaction((now: string) => {
    const rows = expired.all(now);
    for (const row of rows) remove.run(row.id);
    return rows.map((row) => row.path);
  });

  return {
    newId: () => newId('upl'),
    insert(record) {
      insert.run({ ...record, info: JSON.stringify(record.info) });
      return record;
    },
    get(id) {
      const row = byId.get(id);
      return row ? toUploadRecord(row, jsonText) : null;
    },
    markUsed(id) {
      markUsed.run(id);
    },
    setInfo(id, info) {
      setInfo.run(JSON.stringify(info), id);
    },
    purgeExpired: (now = new Date()) => purge.immediate(now.toISOString()),
  };
}
