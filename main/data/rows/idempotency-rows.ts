import type { IdempotencyRecord } from '../types/idempotency.js';

/** An idempotency_keys row, as both stores hold it. */
export interface IdempotencyRow {
  api_key_id: string;
  key: string;
  request_hash: string;
  status: 'in_progress' | 'completed';
  render_id: string | null;
  content_type: string | null;
  output_path: string | null;
  created_at: string;
  expires_at: string;
}

export function toIdempotencyRecord(row: IdempotencyRow): IdempotencyRecord {
  return {
    apiKeyId: row.api_key_id,
    key: row.key,
    requestHash: row.request_hash,
    renderId: row.render_id ?? '',
    contentType: row.content_type ?? '',
    outputPath: row.output_path ?? '',
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
