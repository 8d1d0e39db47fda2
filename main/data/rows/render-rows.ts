import { newRenderId } from '../ids.js';
import type { NewRender, RenderRecord } from '../types/renders.js';

/** A renders row, as both stores hold it. */
export interface RenderRow {
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

/** The record of a render about to be stored: a new id and the time now unless given. */
export function newRenderRecord(render: NewRender): RenderRecord {
  return {
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
}

export function toRenderRecord(row: RenderRow): RenderRecord {
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
