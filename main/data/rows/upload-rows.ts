import type { UploadInfo, UploadKind, UploadRecord } from '../types/uploads.js';
import type { JsonColumn } from './json-column.js';

/** An uploads row; `info` is JSON (text in SQLite). */
export interface UploadRow {
  id: string;
  kind: UploadKind;
  filename: string;
  path: string;
  bytes: number;
  content_type: string | null;
  info: unknown;
  api_key_id: string | null;
  created_at: string;
  expires_at: string | null;
}

export function toUploadRecord(row: UploadRow, json: JsonColumn): UploadRecord {
  return {
    id: row.id,
    kind: row.kind,
    filename: row.filename,
    path: row.path,
    bytes: row.bytes,
    contentType: row.content_type,
    info: json(row.info) as UploadInfo,
    apiKeyId: row.api_key_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
