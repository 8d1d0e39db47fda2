import { newRenderRecord, toRenderRecord, type RenderRow } from '../data/rows/render-rows.js';
import type { NewRender, RenderLookup, RenderRecord } from '../data/types/renders.js';
import type { Database } from './open-database.js';

export interface RendersRepository extends RenderLookup {
  /** Inserts the render; call it in the transaction that debits it. */
  insert(render: NewRender): RenderRecord;
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
      const record = newRenderRecord(render);
      insertStmt.run(record);
      return record;
    },
    get(id) {
      const row = byId.get(id);
      return row ? toRenderRecord(row) : null;
    },
  };
}
