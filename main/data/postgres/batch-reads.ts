import type pg from 'pg';
import type { ManifestRow, RowStatus } from '../../../shared/batch-schemas.js';
import { newId } from '../ids.js';
import type { BatchReads, SucceededRow } from '../core-data.js';
import {
  toManifestRow,
  toQueuedRow,
  type BatchRow,
  type ManifestDbRow,
  type QueuedDbRow,
} from '../rows/batch-rows.js';
import { jsonParsed } from '../rows/json-column.js';
import { selectBatch, toBatch, updateBatch } from './batch-record.js';
import { countRows } from './batch-rows.js';
import { inTransaction } from './transaction.js';

/** Rows per page when streaming succeeded rows: one short query each, never one huge result. */
export const SUCCEEDED_ROWS_PAGE = 1000;

const QUEUED_COLUMNS = 'row_index, line, record, attempts, render_id';

/** Batches and their rows as services read them, from the cluster's database. */
export function postgresBatchReads(pool: pg.Pool): BatchReads {
  const manifest = async (
    id: string,
    cursor: number,
    limit: number,
    status?: RowStatus,
  ): Promise<ManifestRow[]> => {
    const result = await pool.query<ManifestDbRow>(
      `SELECT row_index, line, status, render_id, output_key, error, file_name FROM batch_rows
       WHERE batch_id = $1 AND row_index >= $2 AND ($3::text IS NULL OR status = $3)
       ORDER BY row_index LIMIT $4`,
      [id, cursor, status ?? null, limit],
    );
    return result.rows.map(toManifestRow);
  };

  return {
    newId: () => newId('bat'),
    get: (id) => selectBatch(pool, id),
    async list({ limit, before, apiKeyId }) {
      if (apiKeyId !== undefined) {
        const own = await pool.query<BatchRow>(
          `SELECT * FROM batches WHERE api_key_id = $1 AND ($2::timestamptz IS NULL OR created_at < $2)
           ORDER BY created_at DESC, id DESC LIMIT $3`,
          [apiKeyId, before ?? null, limit],
        );
        return own.rows.map(toBatch);
      }
      const result = before
        ? await pool.query<BatchRow>(
            'SELECT * FROM batches WHERE created_at < $1 ORDER BY created_at DESC, id DESC LIMIT $2',
            [before, limit],
          )
        : await pool.query<BatchRow>(
            'SELECT * FROM batches ORDER BY created_at DESC, id DESC LIMIT $1',
            [limit],
          );
      return result.rows.map(toBatch);
    },
    async unfinished() {
      const result = await pool.query<BatchRow>(
        "SELECT * FROM batches WHERE status IN ('queued', 'running') ORDER BY created_at, id",
      );
      return result.rows.map(toBatch);
    },
    update: (id, fields) => updateBatch(pool, id, fields),
    counts: (batchId) => countRows(pool, batchId),
    manifest,
    async *succeededRows(id): AsyncGenerator<SucceededRow> {
      // Keyset pages by rowIndex: no transaction or cursor stays open while a client downloads.
      let from = 0;
      for (;;) {
        const page = await manifest(id, from, SUCCEEDED_ROWS_PAGE, 'succeeded');
        for (const row of page) {
          if (row.outputKey) {
            yield { rowIndex: row.rowIndex, outputKey: row.outputKey, fileName: row.fileName };
          }
        }
        const last = page.at(-1);
        if (!last || page.length < SUCCEEDED_ROWS_PAGE) return;
        from = last.rowIndex + 1;
      }
    },
    async fileNames(id) {
      const result = await pool.query<{ file_name: string }>(
        `SELECT file_name FROM batch_rows WHERE batch_id = $1 AND file_name IS NOT NULL
         ORDER BY row_index`,
        [id],
      );
      return result.rows.map((row) => row.file_name);
    },
    async recordFields(id) {
      // Each key once, in order of first appearance: json (unlike jsonb) keeps the key order.
      const result = await pool.query<{ key: string }>(
        `SELECT field.key FROM batch_rows,
           json_object_keys(batch_rows.record) WITH ORDINALITY AS field (key, position)
         WHERE batch_rows.batch_id = $1 AND json_typeof(batch_rows.record) = 'object'
         GROUP BY field.key ORDER BY MIN(batch_rows.row_index::bigint * 1000000 + field.position)`,
        [id],
      );
      return result.rows.map((row) => row.key);
    },
    async claim(batchId, limit, leaseUntil) {
      // SKIP LOCKED: several claimers take different rows instead of queueing behind each other.
      const result = await pool.query<QueuedDbRow>(
        `UPDATE batch_rows SET status = 'running', lease_until = $3, attempts = attempts + 1
         WHERE batch_id = $1 AND row_index IN (
           SELECT row_index FROM batch_rows WHERE batch_id = $1 AND status = 'pending'
           ORDER BY row_index LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING ${QUEUED_COLUMNS}`,
        [batchId, limit, leaseUntil],
      );
      return result.rows
        .map((row) => toQueuedRow(row, jsonParsed))
        .sort((a, b) => a.rowIndex - b.rowIndex);
    },
    async succeededRecords(batchId, from, limit) {
      const result = await pool.query<{ row_index: number; record: Record<string, unknown> }>(
        `SELECT row_index, record FROM batch_rows
         WHERE batch_id = $1 AND status = 'succeeded' AND row_index >= $2
         ORDER BY row_index LIMIT $3`,
        [batchId, from, limit],
      );
      return result.rows.map((row) => ({ rowIndex: row.row_index, record: row.record }));
    },
    async pendingInRange(batchId, from, to) {
      const result = await pool.query<QueuedDbRow>(
        `SELECT ${QUEUED_COLUMNS} FROM batch_rows
         WHERE batch_id = $1 AND status IN ('pending', 'running') AND row_index >= $2 AND row_index < $3
         ORDER BY row_index`,
        [batchId, from, to],
      );
      return result.rows.map((row) => toQueuedRow(row, jsonParsed));
    },
    async releaseExpired(now, batchId) {
      const result = batchId
        ? await pool.query(
            `UPDATE batch_rows SET status = 'pending', lease_until = NULL
             WHERE batch_id = $1 AND status = 'running' AND lease_until <= $2`,
            [batchId, now],
          )
        : await pool.query(
            `UPDATE batch_rows SET status = 'pending', lease_until = NULL
             WHERE status = 'running' AND lease_until <= $1`,
            [now],
          );
      return result.rowCount ?? 0;
    },
    remove: (id) =>
      // Its rows and chunks go with it (ON DELETE CASCADE); its ledger entries stay, as in the
      // embedded store. The cascade reaches the chunks before the ingest row, while a worker
      // finishing a chunk locks the ingest row first: taking the ingest row up front waits for
      // that worker instead of deadlocking with it.
      inTransaction(pool, async (client) => {
        await client.query('SELECT 1 FROM batches WHERE id = $1 FOR UPDATE', [id]);
        await client.query('SELECT 1 FROM batch_ingest WHERE batch_id = $1 FOR UPDATE', [id]);
        const result = await client.query('DELETE FROM batches WHERE id = $1', [id]);
        return (result.rowCount ?? 0) > 0;
      }),
  };
}
