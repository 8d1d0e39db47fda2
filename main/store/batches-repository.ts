import type { OutputFormat } from '../../shared/api-schemas.js';
import type { BatchStatus, ManifestRow, RowStatus } from '../../shared/batch-schemas.js';
import type { SheetOptions } from '../../shared/sheet-options.js';
import type { BatchRowQueue, QueuedRow, RowCounts, SourceRecord } from '../batch/batch-queue.js';
import { newId, newRenderId } from '../data/ids.js';
import type {
  BatchFields,
  BatchListOptions,
  BatchOutputOptions,
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

interface BatchRow {
  id: string;
  template_id: string;
  template_version: number | null;
  template_snapshot: string;
  assets_dir: string;
  target: string;
  format: OutputFormat;
  quality: number | null;
  output_options: string;
  sheet_options: string | null;
  targets: string | null;
  source_rows: string | null;
  source_type: 'json-array' | 'csv' | 'xlsx';
  source_ref: string | null;
  sheet: string | null;
  bindings: string;
  file_name_pattern: string | null;
  images_dir: string | null;
  brand: string;
  today: string;
  status: BatchStatus;
  total: number;
  succeeded: number;
  failed: number;
  ingested: number;
  ingest_complete: number;
  rejected_reason: string | null;
  stopped_reason: string | null;
  api_key_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const COLUMN: Record<string, string> = {
  status: 'status',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  stoppedReason: 'stopped_reason',
  rejectedReason: 'rejected_reason',
  total: 'total',
};

export function createBatchesRepository(db: Database): BatchesRepository {
  const insertBatch = db.prepare(
    `INSERT INTO batches (id, template_id, template_snapshot, template_version, assets_dir, target, format, quality, output_options, sheet_options, targets, source_type,
       source_ref, source_rows, sheet, bindings, file_name_pattern, images_dir, brand, today, status, total,
       rejected_reason, api_key_id, created_at)
     VALUES (@id, @templateId, @templateSnapshot, @templateVersion, @assetsDir, @target, @format, @quality, @outputOptions, @sheetOptions, @targets, @sourceType,
       @sourceRef, @sourceRows, @sheet, @bindings, @fileNamePattern, @imagesDir, @brand, @today, @status, @total,
       @rejectedReason, @apiKeyId, @createdAt)`,
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
  const pending = db.prepare<
    [string, number],
    { row_index: number; line: number | null; record: string; attempts: number; render_id: string }
  >(
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
      return rows.map((row) => ({
        rowIndex: row.row_index,
        line: row.line,
        record: JSON.parse(row.record) as Record<string, unknown>,
        attempts: row.attempts + 1,
        renderId: row.render_id,
      }));
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
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([key]) => `${COLUMN[key]} = @${key}`).join(', ');
    db.prepare(`UPDATE batches SET ${sets} WHERE id = @id`).run({
      ...Object.fromEntries(entries),
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
        bindings: JSON.stringify(batch.bindings),
        brand: JSON.stringify(batch.brand),
      });
      return toBatch(byId.get(batch.id) as BatchRow);
    },
    get(id) {
      const row = byId.get(id);
      return row ? toBatch(row) : null;
    },
    list({ limit, before, apiKeyId }) {
      if (apiKeyId !== undefined) {
        return listByKey.all(apiKeyId, before ?? null, before ?? null, limit).map(toBatch);
      }
      return (before ? listBefore.all(before, limit) : listAll.all(limit)).map(toBatch);
    },
    unfinished: () => unfinished.all().map(toBatch),
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
      return rows.map((row) => ({
        rowIndex: row.row_index,
        line: row.line,
        status: row.status,
        renderId: row.render_id,
        outputKey: row.output_key,
        error: row.error,
        fileName: row.file_name,
      }));
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

interface ManifestDbRow {
  row_index: number;
  line: number | null;
  status: RowStatus;
  /** Given when the row is read (migration 9 gave older rows theirs). */
  render_id: string;
  output_key: string | null;
  error: string | null;
  file_name: string | null;
}

function toBatch(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    templateId: row.template_id,
    templateSnapshot: JSON.parse(row.template_snapshot) as unknown,
    templateVersion: row.template_version,
    assetsDir: row.assets_dir,
    target: row.target,
    format: row.format,
    quality: row.quality,
    outputOptions: JSON.parse(row.output_options) as BatchOutputOptions,
    sheetOptions: row.sheet_options ? (JSON.parse(row.sheet_options) as SheetOptions) : null,
    targets: row.targets ? (JSON.parse(row.targets) as string[]) : null,
    sourceType: row.source_type,
    sourceRef: row.source_ref,
    sheet: row.sheet,
    sourceRows: row.source_rows ? (JSON.parse(row.source_rows) as number[]) : null,
    bindings: JSON.parse(row.bindings) as Record<string, unknown>,
    fileNamePattern: row.file_name_pattern,
    imagesDir: row.images_dir,
    brand: JSON.parse(row.brand) as unknown,
    today: row.today,
    status: row.status,
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed,
    ingested: row.ingested,
    ingestComplete: row.ingest_complete === 1,
    rejectedReason: row.rejected_reason,
    stoppedReason: row.stopped_reason,
    apiKeyId: row.api_key_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
