import { newRenderId } from '../data/ids.js';
import type { NewRender, RenderLookup, RenderRecord } from '../data/types/renders.js';
import type { Database } from './open-database.js';

export interface RendersRepository extends RenderLookup {
  /** Inserts the render; call it in the transaction that debits it. */
  insert(render: NewRender): RenderRecord;
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
