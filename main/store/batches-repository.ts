import type { ManifestRow, RowStatus } from '../../shared/batch-schemas.js';
import type { BatchRowQueue, QueuedRow, RowCounts, SourceRecord } from '../batch/batch-queue.js';
import { newId, newRenderId } from '../data/ids.js';
import {
  batchFieldColumns,
  toBatchRecord,
  toManifestRow,
  toQueuedRow,
  type BatchRow,
  type ManifestDbRow,
  type QueuedDbRow,
} from '../data/rows/batch-rows.js';
import { jsonText } from '../data/rows/json-column.js';
import type {
  BatchFields,
  BatchListOptions,
  BatchRecord,
  NewBatch,
} from '../data/types/batch-record.js';
import type { Database } from './open-database.js';
import { withRelaxedSync } from './relaxed-sync.js';

export interface BatchesRepository extends BatchRowQueue {
  newId(): string;
  create(batch: NewBatch): BatchRecord;
  get(id: string): BatchRecord | null;
  /** Newest first; with `apiKeyId`, only that key's batches. */
  list(options: BatchListOptions): BatchRecord[];
  /** Batches to continue after a restart. */
  unfinished(): BatchRecord[];
  update(id: string, fields: BatchFields): void;
  markIngested(id: string, ingested: number, complete: boolean): void;
  manifest(id: string, cursor: number, limit: number, status?: RowStatus): ManifestRow[];
  /** Succeeded rows in rowIndex order, streamed from the database (bundles). */
  succeededRows(
    id: string,
  ): IterableIterator<{ rowIndex: number; outputKey: string; fileName: string | null }>;
  /** Every file name assigned so far (a resumed ingest continues the unique naming). */
  fileNames(id: string): string[];
  /** The keys of the stored records, each once, in order of first appearance (json-array). */
  recordFields(id: string): string[];
  /** Pending, running-expired, failed and cancelled rows become pending again; returns how many. */
  requeueForReplay(id: string): number;
  /** Pending rows become cancelled; returns how many. */
  cancelPending(id: string): number;
  remove(id: string): boolean;
  renderIdFor(id: string, rowIndex: number): string | null;
}

const toRecord = (row: BatchRow): BatchRecord => toBatchRecord(row, jsonText);

export function createBatchesRepository(db: Database): BatchesRepository {
  const insertBatch = db.prepare(
    `INSERT INTO batches (id, template_id, template_snapshot, template_version, assets_dir, target, format, quality, output_options, sheet_options, targets, source_type,
       source_ref, source_rows, sheet, bindings, file_name_pattern, images_dir, brand, today, status, total,
       rejected_reason, api_key_id, created_at, source_total)
     VALUES (@id, @templateId, @templateSnapshot, @templateVersion, @assetsDir, @target, @format, @quality, @outputOptions, @sheetOptions, @targets, @sourceType,
       @sourceRef, @sourceRows, @sheet, @bindings, @fileNamePattern, @imagesDir, @brand, @today, @status, @total,
       @rejectedReason, @apiKeyId, @createdAt, @sourceTotal)`,
  );
  const byId = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?');
  const listAll = db.prepare<[number], BatchRow>(
    'SELECT * FROM batches ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const listBefore = db.prepare<[string, number], BatchRow>(
    'SELECT * FROM batches WHERE created_at < ? ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const listByKey = db.prepare<[string, string | null, string | null, number], BatchRow>(
    `SELECT * FROM batches WHERE api_key_id = ? AND (? IS NULL OR created_at < ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const unfinished = db.prepare<[], BatchRow>(
    "SELECT * FROM batches WHERE status IN ('queued', 'running') ORDER BY created_at, id",
  );
  const markIngested = db.prepare(
    'UPDATE batches SET ingested = ?, ingest_complete = ? WHERE id = ?',
  );
  const insertRow = db.prepare(
    `INSERT INTO batch_rows (batch_id, row_index, line, status, record, error, file_name, render_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (batch_id, row_index) DO NOTHING`,
  );
  const pending = db.prepare<[string, number], QueuedDbRow>(
    // Named: the planner otherwise walks the primary key from row 0 past every finished row,
    // so each claim cost more as the batch went on (quadratic over a batch).
    `SELECT row_index, line, record, attempts, render_id FROM batch_rows INDEXED BY batch_rows_by_status
     WHERE batch_id = ? AND status = 'pending' ORDER BY row_index LIMIT ?`,
  );
  const lease = db.prepare(
    "UPDATE batch_rows SET status = 'running', lease_until = ?, attempts = attempts + 1 WHERE batch_id = ? AND row_index = ?",
  );
  const complete = db.prepare(
    `UPDATE batch_rows SET status = 'succeeded', render_id = ?, output_key = ?, error = NULL, lease_until = NULL
     WHERE batch_id = ? AND row_index = ? AND status = 'running'`,
  );
  const fail = db.prepare(
    `UPDATE batch_rows SET status = 'failed', error = ?, lease_until = NULL
     WHERE batch_id = ? AND row_index = ? AND status = 'running'`,
  );
  const bumpSucceeded = db.prepare('UPDATE batches SET succeeded = succeeded + 1 WHERE id = ?');
  const bumpFailed = db.prepare('UPDATE batches SET failed = failed + 1 WHERE id = ?');
  const expiredAll = db.prepare(
    "UPDATE batch_rows SET status = 'pending', lease_until = NULL WHERE status = 'running' AND lease_until <= ?",
  );
  const expiredOne = db.prepare(
    "UPDATE batch_rows INDEXED BY batch_rows_by_status SET status = 'pending', lease_until = NULL WHERE batch_id = ? AND status = 'running' AND lease_until <= ?",
  );
  const counts = db.prepare<[string], { status: RowStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM batch_rows WHERE batch_id = ? GROUP BY status',
  );
  const manifestAll = db.prepare<[string, number, number], ManifestDbRow>(
    `SELECT row_index, line, status, render_id, output_key, error, file_name FROM batch_rows
     WHERE batch_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?`,
  );
  const manifestByStatus = db.prepare<[string, string, number, number], ManifestDbRow>(
    `SELECT row_index, line, status, render_id, output_key, error, file_name FROM batch_rows INDEXED BY batch_rows_by_status
     WHERE batch_id = ? AND status = ? AND row_index >= ? ORDER BY row_index LIMIT ?`,
  );
  const succeededRows = db.prepare<
    [string],
    { row_index: number; output_key: string; file_name: string | null }
  >(
    `SELECT row_index, output_key, file_name FROM batch_rows
     WHERE batch_id = ? AND status = 'succeeded' ORDER BY row_index`,
  );
  const recordFields = db.prepare<[string], string>(
    `SELECT field.key FROM batch_rows, json_each(batch_rows.record) AS field
     WHERE batch_rows.batch_id = ? AND batch_rows.record LIKE '{%'
     GROUP BY field.key ORDER BY MIN(batch_rows.row_index * 1000000 + field.id)`,
  );
  const fileNames = db.prepare<[string], string>(
    'SELECT file_name FROM batch_rows WHERE batch_id = ? AND file_name IS NOT NULL',
  );
  const requeue = db.prepare(
    `UPDATE batch_rows SET status = 'pending', error = NULL, lease_until = NULL
     WHERE batch_id = ? AND status IN ('pending', 'failed', 'cancelled')`,
  );
  const resetFailedCount = db.prepare(
    "UPDATE batches SET failed = (SELECT COUNT(*) FROM batch_rows WHERE batch_id = ? AND status = 'failed') WHERE id = ?",
  );
  const cancelPending = db.prepare(
    "UPDATE batch_rows INDEXED BY batch_rows_by_status SET status = 'cancelled' WHERE batch_id = ? AND status = 'pending'",
  );
  const removeBatch = db.prepare('DELETE FROM batches WHERE id = ?');
  const removeRows = db.prepare('DELETE FROM batch_rows WHERE batch_id = ?');
  const renderIdFor = db.prepare<[string, number], string | null>(
    'SELECT render_id FROM batch_rows WHERE batch_id = ? AND row_index = ?',
  );

  const enqueue = db.transaction((batchId: string, rows: SourceRecord[]) => {
    let failed = 0;
    for (const row of rows) {
      const status = row.error ? 'failed' : 'pending';
      const inserted = insertRow.run(
        batchId,
        row.rowIndex,
        row.line,
        status,
        JSON.stringify(row.record),
        row.error ?? null,
        row.fileName ?? null,
        newRenderId(),
      );
      if (inserted.changes > 0 && row.error) failed += 1;
    }
    if (failed > 0)
      db.prepare('UPDATE batches SET failed = failed + ? WHERE id = ?').run(failed, batchId);
    return failed;
  });
  const claim = db.transaction(
    (batchId: string, limit: number, leaseUntil: number): QueuedRow[] => {
      const rows = pending.all(batchId, limit);
      for (const row of rows) lease.run(leaseUntil, batchId, row.row_index);
      // Read before the lease counted this attempt.
      return rows.map((row) => ({ ...toQueuedRow(row, jsonText), attempts: row.attempts + 1 }));
    },
  );
  const replay = db.transaction((id: string) => {
    const n = requeue.run(id).changes;
    resetFailedCount.run(id, id);
    return n;
  });
  const remove = db.transaction((id: string) => {
    removeRows.run(id);
    return removeBatch.run(id).changes > 0;
  });

  const update: BatchesRepository['update'] = (id, fields) => {
    const set = batchFieldColumns(fields);
    if (set.length === 0) return;
    const sets = set.map(({ column, field }) => `${column} = @${field}`).join(', ');
    db.prepare(`UPDATE batches SET ${sets} WHERE id = @id`).run({
      ...Object.fromEntries(set.map(({ field, value }) => [field, value])),
      id,
    });
  };

  return {
    newId: () => newId('bat'),
    create(batch) {
      insertBatch.run({
        ...batch,
        templateSnapshot: JSON.stringify(batch.templateSnapshot),
        outputOptions: JSON.stringify(batch.outputOptions ?? {}),
        sheetOptions: batch.sheetOptions ? JSON.stringify(batch.sheetOptions) : null,
        targets: batch.targets ? JSON.stringify(batch.targets) : null,
        sourceRows: batch.sourceRows ? JSON.stringify(batch.sourceRows) : null,
        sourceTotal: batch.sourceTotal ?? null,
        bindings: JSON.stringify(batch.bindings),
        brand: JSON.stringify(batch.brand),
      });
      return toRecord(byId.get(batch.id) as BatchRow);
    },
    get(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : null;
    },
    list({ limit, before, apiKeyId }) {
      if (apiKeyId !== undefined) {
        return listByKey.all(apiKeyId, before ?? null, before ?? null, limit).map(toRecord);
      }
      return (before ? listBefore.all(before, limit) : listAll.all(limit)).map(toRecord);
    },
    unfinished: () => unfinished.all().map(toRecord),
    update,
    markIngested(id, ingested, complete) {
      markIngested.run(ingested, complete ? 1 : 0, id);
    },
    enqueue: (batchId, rows) => enqueue(batchId, rows),
    // A lease is released on every start, so losing one to a power cut costs nothing.
    claim: (batchId, limit, leaseUntil) =>
      withRelaxedSync(db, () => claim.immediate(batchId, limit, leaseUntil)),
    complete(batchId, rowIndex, result) {
      const changed =
        complete.run(result.renderId, result.outputKey, batchId, rowIndex).changes > 0;
      if (changed) bumpSucceeded.run(batchId);
      return changed;
    },
    fail(batchId, rowIndex, error) {
      const changed = fail.run(error, batchId, rowIndex).changes > 0;
      if (changed) bumpFailed.run(batchId);
      return changed;
    },
    releaseExpired(now, batchId) {
      return batchId ? expiredOne.run(batchId, now).changes : expiredAll.run(now).changes;
    },
    counts(batchId) {
      const result: RowCounts = { pending: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
      for (const row of counts.all(batchId)) result[row.status] = row.n;
      return result;
    },
    manifest(id, cursor, limit, status) {
      const rows = status
        ? manifestByStatus.all(id, status, cursor, limit)
        : manifestAll.all(id, cursor, limit);
      return rows.map(toManifestRow);
    },
    *succeededRows(id) {
      for (const row of succeededRows.iterate(id)) {
        yield { rowIndex: row.row_index, outputKey: row.output_key, fileName: row.file_name };
      }
    },
    fileNames: (id) => fileNames.pluck().all(id),
    recordFields: (id) => recordFields.pluck().all(id),
    requeueForReplay: (id) => replay.immediate(id),
    cancelPending: (id) => cancelPending.run(id).changes,
    remove: (id) => remove.immediate(id),
    renderIdFor: (id, rowIndex) => renderIdFor.pluck().get(id, rowIndex) ?? null,
  };
}
