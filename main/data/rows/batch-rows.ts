import type { ManifestRow, RowStatus } from '../../../shared/batch-schemas.js';
import type { SheetOptions } from '../../../shared/sheet-options.js';
import type { QueuedRow } from '../../batch/batch-queue.js';
import type { BatchFields, BatchOutputOptions, BatchRecord } from '../types/batch-record.js';
import { jsonOrNull, type JsonColumn } from './json-column.js';

/** The columns named as a record's fields hold the same values. */
type SameAsRecord = Pick<BatchRecord, 'id' | 'target' | 'format' | 'quality' | 'sheet' | 'today'> &
  Pick<BatchRecord, 'status' | 'total' | 'succeeded' | 'failed' | 'ingested'>;

/**
 * A batches row. The JSON columns are text in SQLite and parsed by PostgreSQL's driver, and
 * SQLite keeps booleans as 0/1: the mappers take the store's JsonColumn.
 */
export interface BatchRow extends SameAsRecord {
  template_id: string;
  template_version: number | null;
  template_snapshot: unknown;
  assets_dir: string;
  output_options: unknown;
  sheet_options: unknown;
  targets: unknown;
  source_rows: unknown;
  source_total: number | null;
  source_type: 'json-array' | 'csv' | 'xlsx';
  source_ref: string | null;
  bindings: unknown;
  file_name_pattern: string | null;
  images_dir: string | null;
  brand: unknown;
  ingest_complete: number | boolean;
  rejected_reason: string | null;
  stopped_reason: string | null;
  api_key_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function toBatchRecord(row: BatchRow, json: JsonColumn): BatchRecord {
  return {
    id: row.id,
    templateId: row.template_id,
    templateSnapshot: json(row.template_snapshot),
    templateVersion: row.template_version,
    assetsDir: row.assets_dir,
    target: row.target,
    format: row.format,
    quality: row.quality,
    outputOptions: json(row.output_options) as BatchOutputOptions,
    sheetOptions: jsonOrNull(json, row.sheet_options) as SheetOptions | null,
    targets: jsonOrNull(json, row.targets) as string[] | null,
    sourceType: row.source_type,
    sourceRef: row.source_ref,
    sheet: row.sheet,
    sourceRows: jsonOrNull(json, row.source_rows) as number[] | null,
    sourceTotal: row.source_total ?? null,
    bindings: json(row.bindings) as Record<string, unknown>,
    fileNamePattern: row.file_name_pattern,
    imagesDir: row.images_dir,
    brand: json(row.brand),
    today: row.today,
    status: row.status,
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed,
    ingested: row.ingested,
    ingestComplete: row.ingest_complete === 1 || row.ingest_complete === true,
    rejectedReason: row.rejected_reason,
    stoppedReason: row.stopped_reason,
    apiKeyId: row.api_key_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

const FIELD_COLUMNS: Readonly<Record<string, string>> = {
  status: 'status',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  stoppedReason: 'stopped_reason',
  rejectedReason: 'rejected_reason',
  total: 'total',
};

/**
 * The columns an update of a batch sets, each with its field and value; undefined fields are
 * left alone. Column names come from a fixed map, never from the caller.
 */
export function batchFieldColumns(
  fields: BatchFields,
): Array<{ column: string; field: string; value: unknown }> {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      const column = FIELD_COLUMNS[field];
      if (!column) throw new Error(`A batch has no updatable field "${field}".`);
      return { column, field, value };
    });
}

/** A batch_rows row as the manifest lists it. */
export interface ManifestDbRow {
  row_index: number;
  line: number | null;
  status: RowStatus;
  /** Given when the row is read (SQLite's migration 9 gave older rows theirs). */
  render_id: string;
  output_key: string | null;
  error: string | null;
  file_name: string | null;
}

export function toManifestRow(row: ManifestDbRow): ManifestRow {
  return {
    rowIndex: row.row_index,
    line: row.line,
    status: row.status,
    renderId: row.render_id,
    outputKey: row.output_key,
    error: row.error,
    fileName: row.file_name,
  };
}

/** A batch_rows row as a runner takes it to render. */
export interface QueuedDbRow {
  row_index: number;
  line: number | null;
  record: unknown;
  attempts: number;
  render_id: string;
}

export function toQueuedRow(row: QueuedDbRow, json: JsonColumn): QueuedRow {
  return {
    rowIndex: row.row_index,
    line: row.line,
    record: json(row.record) as Record<string, unknown>,
    attempts: row.attempts,
    renderId: row.render_id,
  };
}
