import type { OutputFormat } from '../../../shared/api-schemas.js';
import type { BatchStatus } from '../../../shared/batch-schemas.js';
import type { SheetOptions } from '../../../shared/sheet-options.js';

/** A batch as services read it, from either store. */
export interface BatchRecord {
  id: string;
  templateId: string;
  templateSnapshot: unknown;
  /** The workspace template version the batch pinned; null for a built-in template. */
  templateVersion: number | null;
  assetsDir: string;
  target: string;
  format: OutputFormat;
  quality: number | null;
  /** Scale, transparent background and crop marks, as the request gave them. */
  outputOptions: BatchOutputOptions;
  /** N-up sheets as the request gave them; null for a batch of single files. */
  sheetOptions: SheetOptions | null;
  /**
   * Several sizes from one run: each source row is drawn in every layout here, as batch rows
   * `sourceIndex * targets.length + i` (batch-targets.ts); null for one layout (`target`).
   */
  targets: string[] | null;
  sourceType: 'json-array' | 'csv' | 'xlsx';
  sourceRef: string | null;
  sheet: string | null;
  /**
   * Only these rows of the upload's sheet (sorted 0-based indexes; a rerun of failed rows),
   * ingested with their own indexes; null for every row.
   */
  sourceRows: number[] | null;
  /**
   * How many rows the source has (the sheet's data rows, or the records), whatever rows the
   * batch draws: the N of `{ generated: total }`. Null for a batch made before it was kept.
   */
  sourceTotal: number | null;
  bindings: Record<string, unknown>;
  fileNamePattern: string | null;
  imagesDir: string | null;
  brand: unknown;
  today: string;
  status: BatchStatus;
  total: number;
  succeeded: number;
  failed: number;
  ingested: number;
  ingestComplete: boolean;
  rejectedReason: string | null;
  stoppedReason: string | null;
  apiKeyId: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * The output options a batch keeps for every row (shared/output-options.ts), and whether its rows'
 * codes are read back from their pixels (kept with them: every row's job carries it the same way).
 */
export interface BatchOutputOptions {
  scale?: number;
  background?: 'template' | 'transparent';
  cropMarks?: boolean;
  page?: number;
  verifyCodes?: boolean;
}

export type NewBatch = Omit<
  BatchRecord,
  | 'outputOptions'
  | 'sheetOptions'
  | 'targets'
  | 'sourceRows'
  | 'sourceTotal'
  | 'succeeded'
  | 'failed'
  | 'ingested'
  | 'ingestComplete'
  | 'startedAt'
  | 'finishedAt'
  | 'stoppedReason'
> & {
  outputOptions?: BatchOutputOptions;
  sheetOptions?: SheetOptions | null;
  targets?: string[] | null;
  sourceRows?: number[] | null;
  sourceTotal?: number | null;
};

/** The fields of a batch that change after it is created (undefined ones are left alone). */
export type BatchFields = Partial<
  Pick<
    BatchRecord,
    'status' | 'startedAt' | 'finishedAt' | 'stoppedReason' | 'rejectedReason' | 'total'
  >
>;

/** A page of batches, newest first; with `apiKeyId`, only that key's batches. */
export interface BatchListOptions {
  limit: number;
  before?: string;
  apiKeyId?: string;
}
