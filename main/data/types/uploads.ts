export type UploadKind = 'csv' | 'xlsx' | 'image' | 'zip';

/** What was learnt when the upload was inspected (rows, fields, sheets, encoding …). */
export type UploadInfo = Record<string, unknown>;

export interface UploadRecord {
  id: string;
  kind: UploadKind;
  filename: string;
  path: string;
  bytes: number;
  contentType: string | null;
  info: UploadInfo;
  apiKeyId: string | null;
  createdAt: string;
  /** null once a batch uses the upload: it then lives as long as the batch. */
  expiresAt: string | null;
}

export interface UploadsRepository {
  newId(): string;
  insert(record: UploadRecord): UploadRecord;
  get(id: string): UploadRecord | null;
  /** Keeps the upload for as long as a batch needs it. */
  markUsed(id: string): void;
  /** Replaces what is known about the upload (cells edited in the app are kept there). */
  setInfo(id: string, info: UploadInfo): void;
  /** Deletes expired rows and returns their files for the caller to remove. */
  purgeExpired(now?: Date): string[];
}
