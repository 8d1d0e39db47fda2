import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import { toRenderRecord, type RenderRow } from '../rows/render-rows.js';
import type { RenderLookup, RenderRecord } from '../types/renders.js';
import type { Queryable } from './transaction.js';

export type PostgresRenders = AsyncPort<RenderLookup>;

/** Records a single render; call it in the transaction that debits it. */
export async function insertRender(db: Queryable, render: RenderRecord): Promise<void> {
  await db.query(
    `INSERT INTO renders
       (id, template_id, ratio, format, api_key_id, batch_id, row_index, output_key, bytes, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      render.id,
      render.templateId,
      render.ratio,
      render.format,
      render.apiKeyId,
      render.batchId,
      render.rowIndex,
      render.outputKey,
      render.bytes,
      render.createdAt,
    ],
  );
}

export function postgresRenders(pool: pg.Pool): PostgresRenders {
  return {
    async get(id) {
      const result = await pool.query<RenderRow>('SELECT * FROM renders WHERE id = $1', [id]);
      const row = result.rows[0];
      return row ? toRenderRecord(row) : null;
    },
  };
}
