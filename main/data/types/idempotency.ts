/** A completed request, enough to replay the original response byte for byte. */
export interface IdempotencyRecord {
  apiKeyId: string;
  key: string;
  requestHash: string;
  renderId: string;
  contentType: string;
  outputPath: string;
  createdAt: string;
  expiresAt: string;
}

export type ClaimResult =
  /**
   * This request owns the key: render, then `complete` (with the debit) or `abandon`.
   * `staleOutputPath` is the file of an expired record this claim replaced; delete it.
   */
  | { state: 'claimed'; staleOutputPath: string | null }
  /** Another request with this key is still running (409 idempotency-key-in-use). */
  | { state: 'in-progress' }
  /** Same key, same request, already done: replay `record` (no render, no charge). */
  | { state: 'completed'; record: IdempotencyRecord }
  /** Same key, different request (422 idempotency-key-reused). */
  | { state: 'mismatch' };

export interface ClaimInput {
  apiKeyId: string;
  key: string;
  /** A digest of what identifies the request (method, path, body). */
  requestHash: string;
  now?: Date;
}

export interface CompleteInput {
  apiKeyId: string;
  key: string;
  renderId: string;
  contentType: string;
  outputPath: string;
  now?: Date;
  ttlMs?: number;
}

export interface IdempotencyRepository {
  claim(input: ClaimInput): ClaimResult;
  /**
   * Marks the claim completed. Call it inside the same transaction as the debit, so the charge
   * and the replay record commit or roll back together. Throws when the claim is gone.
   */
  complete(input: CompleteInput): void;
  /** Drops this request's claim after a failure, so a retry can run. Completed rows stay. */
  abandon(input: { apiKeyId: string; key: string }): boolean;
  /** At startup: claims of a process that died mid-request can never complete. */
  clearInProgress(): number;
  /** Deletes expired rows; returns the output files of the completed ones for the caller to delete. */
  purgeExpired(now?: Date): string[];
}
