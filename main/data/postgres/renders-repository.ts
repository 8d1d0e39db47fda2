import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import type { RenderLookup, RenderRecord } from '../types/renders.js';
import type { Queryable } from './transaction.js';

export type PostgresRenders = AsyncPort<RenderLookup>;

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
      return row
        ? {
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
          }
        : null;
    },
  };
}
