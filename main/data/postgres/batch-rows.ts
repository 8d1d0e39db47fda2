import type { RowStatus } from '../../../shared/batch-schemas.js';
import type { RowCounts, SourceRecord } from '../../batch/batch-queue.js';
import { newRenderId } from '../ids.js';
import type { Queryable } from './transaction.js';

/** The row-level statements the batch reads and commands share. */

/**
 * Adds rows in one statement; rows already present (a resumed ingest) are left as they are. A row
 * the source could not read is stored as failed; returns how many of those were new, and counts
 * them on the batch.
 */
export async function enqueueRows(
  db: Queryable,
  batchId: string,
  rows: SourceRecord[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db.query<{ failed: number }>(
    `WITH added AS (
       INSERT INTO batch_rows (batch_id, row_index, line, status, record, error, file_name, render_id)
       SELECT $1, r.row_index, r.line, CASE WHEN r.error IS NULL THEN 'pending' ELSE 'failed' END,
              r.record::json, r.error, r.file_name, r.render_id
       FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS r (row_index, line, record, error, file_name, render_id)
       ON CONFLICT (batch_id, row_index) DO NOTHING
       RETURNING error
     ),
     counted AS (SELECT COUNT(*) FILTER (WHERE error IS NOT NULL)::int AS unreadable FROM added),
     bumped AS (
       UPDATE batches SET failed = batches.failed + counted.unreadable FROM counted
       WHERE batches.id = $1 AND counted.unreadable > 0
     )
     SELECT unreadable AS failed FROM counted`,
    [
      batchId,
      rows.map((row) => row.rowIndex),
      rows.map((row) => row.line),
      rows.map((row) => JSON.stringify(row.record)),
      rows.map((row) => (row.error ? storableText(row.error) : null)),
      rows.map((row) => (row.fileName === undefined ? null : storableText(row.fileName))),
      rows.map(() => newRenderId()),
    ],
  );
  return result.rows[0]?.failed ?? 0;
}

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can). Messages and names quoting a hostile cell keep
 * everything else; the NUL shows as U+FFFD rather than failing the whole group of rows.
 */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

export async function countRows(db: Queryable, batchId: string): Promise<RowCounts> {
  const result = await db.query<{ status: RowStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM batch_rows WHERE batch_id = $1 GROUP BY status',
    [batchId],
  );
  const counts: RowCounts = { pending: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const row of result.rows) counts[row.status] = row.n;
  return counts;
}

/** Pending rows become cancelled; returns how many. */
export async function cancelPendingRows(db: Queryable, batchId: string): Promise<number> {
  const result = await db.query(
    "UPDATE batch_rows SET status = 'cancelled' WHERE batch_id = $1 AND status = 'pending'",
    [batchId],
  );
  return result.rowCount ?? 0;
}

/** Pending, failed and cancelled rows become pending again, and the failed count follows. */
export async function requeueRowsForReplay(db: Queryable, batchId: string): Promise<number> {
  const result = await db.query(
    `UPDATE batch_rows SET status = 'pending', error = NULL, lease_until = NULL
     WHERE batch_id = $1 AND status IN ('pending', 'failed', 'cancelled')`,
    [batchId],
  );
  await db.query(
    `UPDATE batches SET failed =
       (SELECT COUNT(*) FROM batch_rows WHERE batch_id = $1 AND status = 'failed')
     WHERE id = $1`,
    [batchId],
  );
  return result.rowCount ?? 0;
}
