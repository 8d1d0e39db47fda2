import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import { newId } from '../ids.js';
import { jsonParsed } from '../rows/json-column.js';
import { toUploadRecord, type UploadRow } from '../rows/upload-rows.js';
import type { UploadsRepository } from '../types/uploads.js';
import type { Queryable } from './transaction.js';

export type PostgresUploads = AsyncPort<UploadsRepository>;

/** Keeps the upload for as long as a batch needs it (inside the batch's creation). */
export async function markUploadUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE uploads SET expires_at = NULL WHERE id = $1', [id]);
}

/** Upload metadata; the files themselves live in the shared object store. */
export function postgresUploads(pool: pg.Pool): PostgresUploads {
  return {
    newId: () => Promise.resolve(newId('upl')),
    async insert(record) {
      await pool.query(
        `INSERT INTO uploads (id, kind, filename, path, bytes, content_type, info, api_key_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          record.id,
          record.kind,
          record.filename,
          record.path,
          record.bytes,
          record.contentType,
          JSON.stringify(record.info),
          record.apiKeyId,
          record.createdAt,
          record.expiresAt,
        ],
      );
      return record;
    },
    async get(id) {
      const result = await pool.query<UploadRow>('SELECT * FROM uploads WHERE id = $1', [id]);
      const row = result.rows[0];
      return row ? toUploadRecord(row, jsonParsed) : null;
    },
    markUsed: (id) => markUploadUsed(pool, id),
    async setInfo(id, info) {
      await pool.query('UPDATE uploads SET info = $1 WHERE id = $2', [JSON.stringify(info), id]);
    },
    async purgeExpired(now = new Date()) {
      const result = await pool.query<{ path: string }>(
        'DELETE FROM uploads WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING path',
        [now.toISOString()],
      );
      return result.rows.map((row) => row.path);
    },
  };
}
