import { newId } from './ids.js';
import type { Database } from './open-database.js';

/** One finished render, single or batch row; the ledger debit refers to it by id. */
export interface RenderRecord {
  id: string;
  templateId: string;
  ratio: string;
  format: string;
  apiKeyId: string | null;
  batchId: string | null;
  rowIndex: number | null;
  outputKey: string | null;
  bytes: number;
  createdAt: string;
}

/** A render to record; `id` and `createdAt` are generated when omitted. */
export type NewRender = Omit<
  RenderRecord,
  'id' | 'createdAt' | 'apiKeyId' | 'batchId' | 'rowIndex' | 'outputKey'
> &
  Partial<
    Pick<RenderRecord, 'id' | 'createdAt' | 'apiKeyId' | 'batchId' | 'rowIndex' | 'outputKey'>
  >;

export interface RendersRepository {
  /** Inserts the render; call it in the transaction that debits it. */
  insert(render: NewRender): RenderRecord;
  get(id: string): RenderRecord | null;
}

/** A fresh `rnd_…` id, for callers that need the id before the row is written (file names). */
export function newRenderId(): string {
  return newId('rnd');
}

interface RenderRow {
  id: string;
  template_id: string;
  ratio: string;
  format: string;
  api_key_id: string | null;
  batch_id: string | null;
  row_index: number | null;
  output_key: string | null;
  bytes: number;
  created_at: string;
}

export function createRendersRepository(db: Database): RendersRepository {
  const insertStmt = db.prepare(
    `INSERT INTO renders
       (id, template_id, ratio, format, api_key_id, batch_id, row_index, output_key, bytes, created_at)
     VALUES
       (@id, @templateId, @ratio, @format, @apiKeyId, @batchId, @rowIndex, @outputKey, @bytes, @createdAt)`,
  );
  const byId = db.prepare<[string], RenderRow>('SELECT * FROM renders WHERE id = ?');

  return {
    insert(render) {
      const record: RenderRecord = {
        id: render.id ?? newRenderId(),
        templateId: render.templateId,
        ratio: render.ratio,
        format: render.format,
        apiKeyId: render.apiKeyId ?? null,
        batchId: render.batchId ?? null,
        rowIndex: render.rowIndex ?? null,
        outputKey: render.outputKey ?? null,
        bytes: render.bytes,
        createdAt: render.createdAt ?? new Date().toISOString(),
      };
      insertStmt.run(record);
      return record;
    },
    get(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : null;
    },
  };
}

function toRecord(row: RenderRow): RenderRecord {
  return {
    id: row.id,
    templateId: row.template_id,
    ratio: row.ratio,
    format: row.format,
    apiKeyId: row.api_key_id,
    batchId: row.batch_id,
    rowIndex: row.row_index,
    outputKey: row.output_key,
    bytes: row.bytes,
    createdAt: row.created_at,
  };
}
