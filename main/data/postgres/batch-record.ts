import { batchFieldColumns, toBatchRecord, type BatchRow } from '../rows/batch-rows.js';
import { jsonParsed } from '../rows/json-column.js';
import type { BatchFields, BatchRecord, NewBatch } from '../types/batch-record.js';
import type { Queryable } from './transaction.js';

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
       sheet_options, source_rows, targets, source_total)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
       $20, $21, $22, $23, $24, $25, $26)`,
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
      batch.sourceTotal ?? null,
    ],
  );
}

/** Sets the given fields (undefined ones are left alone). */
export async function updateBatch(db: Queryable, id: string, fields: BatchFields): Promise<void> {
  const set = batchFieldColumns(fields);
  if (set.length === 0) return;
  const sets = set.map(({ column }, i) => `${column} = $${i + 2}`);
  await db.query(`UPDATE batches SET ${sets.join(', ')} WHERE id = $1`, [
    id,
    ...set.map(({ value }) => value),
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

/** A batch as PostgreSQL returns it (json columns already parsed). */
export function toBatch(row: BatchRow): BatchRecord {
  return toBatchRecord(row, jsonParsed);
}
