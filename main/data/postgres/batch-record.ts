import type { BatchStatus } from '../../../shared/batch-schemas.js';
import type { OutputFormat } from '../../../shared/api-schemas.js';
import type { SheetOptions } from '../../../shared/sheet-options.js';
import type {
  BatchFields,
  BatchOutputOptions,
  BatchRecord,
  NewBatch,
} from '../types/batch-record.js';
import type { Queryable } from './transaction.js';

/** A batches row as PostgreSQL returns it (json columns already parsed). */
export interface BatchRow {
  id: string;
  template_id: string;
  template_version: number | null;
  template_snapshot: unknown;
  assets_dir: string;
  target: string;
  format: OutputFormat;
  quality: number | null;
  output_options: BatchOutputOptions;
  sheet_options: SheetOptions | null;
  source_type: 'json-array' | 'csv' | 'xlsx';
  source_ref: string | null;
  sheet: string | null;
  source_rows: number[] | null;
  targets: string[] | null;
  bindings: Record<string, unknown>;
  file_name_pattern: string | null;
  images_dir: string | null;
  brand: unknown;
  today: string;
  status: BatchStatus;
  total: number;
  succeeded: number;
  failed: number;
  ingested: number;
  ingest_complete: boolean;
  rejected_reason: string | null;
  stopped_reason: string | null;
  api_key_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const TERMINAL_BATCH_STATUSES: ReadonlySet<string> = new Set([
  'succeeded',
  'partial',
  'failed',
  'degraded',
  'cancelled',
]);

export async function selectBatch(
  db: Queryable,
  id: string,
  lock = false,
): Promise<BatchRecord | null> {
  const result = await db.query<BatchRow>(
    `SELECT * FROM batches WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  const row = result.rows[0];
  return row ? toBatch(row) : null;
}

export async function insertBatch(db: Queryable, batch: NewBatch): Promise<void> {
  await db.query(
    `INSERT INTO batches (id, template_id, template_snapshot, template_version, assets_dir, target,
       format, quality, source_type, source_ref, sheet, bindings, file_name_pattern, images_dir,
       brand, today, status, total, rejected_reason, api_key_id, created_at, output_options,
       sheet_options, source_rows, targets)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
       $20, $21, $22, $23, $24, $25)`,
    [
      batch.id,
      batch.templateId,
      JSON.stringify(batch.templateSnapshot),
      batch.templateVersion,
      batch.assetsDir,
      batch.target,
      batch.format,
      batch.quality,
      batch.sourceType,
      batch.sourceRef,
      batch.sheet,
      JSON.stringify(batch.bindings),
      batch.fileNamePattern,
      batch.imagesDir,
      JSON.stringify(batch.brand),
      batch.today,
      batch.status,
      batch.total,
      batch.rejectedReason,
      batch.apiKeyId,
      batch.createdAt,
      JSON.stringify(batch.outputOptions ?? {}),
      batch.sheetOptions ? JSON.stringify(batch.sheetOptions) : null,
      batch.sourceRows ? JSON.stringify(batch.sourceRows) : null,
      batch.targets && batch.targets.length > 0 ? JSON.stringify(batch.targets) : null,
    ],
  );
}

const COLUMN: Record<string, string> = {
  status: 'status',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  stoppedReason: 'stopped_reason',
  rejectedReason: 'rejected_reason',
  total: 'total',
};

/** Sets the given fields (undefined ones are left alone); column names come from a fixed map. */
export async function updateBatch(db: Queryable, id: string, fields: BatchFields): Promise<void> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map(([key], i) => {
    const column = COLUMN[key];
    if (!column) throw new Error(`A batch has no updatable field "${key}".`);
    return `${column} = $${i + 2}`;
  });
  await db.query(`UPDATE batches SET ${sets.join(', ')} WHERE id = $1`, [
    id,
    ...entries.map(([, value]) => value),
  ]);
}

export async function markIngested(
  db: Queryable,
  id: string,
  ingested: number,
  complete: boolean,
): Promise<void> {
  await db.query('UPDATE batches SET ingested = $2, ingest_complete = $3 WHERE id = $1', [
    id,
    ingested,
    complete,
  ]);
}

export function toBatch(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    templateId: row.template_id,
    templateSnapshot: row.template_snapshot,
    templateVersion: row.template_version,
    assetsDir: row.assets_dir,
    target: row.target,
    format: row.format,
    quality: row.quality,
    outputOptions: row.output_options,
    sheetOptions: row.sheet_options ?? null,
    targets: row.targets ?? null,
    sourceType: row.source_type,
    sourceRef: row.source_ref,
    sheet: row.sheet,
    sourceRows: row.source_rows ?? null,
    bindings: row.bindings,
    fileNamePattern: row.file_name_pattern,
    imagesDir: row.images_dir,
    brand: row.brand,
    today: row.today,
    status: row.status,
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed,
    ingested: row.ingested,
    ingestComplete: row.ingest_complete,
    rejectedReason: row.rejected_reason,
    stoppedReason: row.stopped_reason,
    apiKeyId: row.api_key_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
