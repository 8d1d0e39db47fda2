import { AppError } from '../../shared/errors.js';
import type {
  ClaimInput,
  ClaimResult,
  IdempotencyRecord,
  IdempotencyRepository,
} from '../data/types/idempotency.js';
import type { Database } from './open-database.js';

/** How long a completed render can be replayed with its Idempotency-Key (published in the docs). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

interface IdempotencyRow {
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

export function createIdempotencyRepository(db: Database): IdempotencyRepository {
  const takeExpired = db.prepare<[string, string, string], { output_path: string | null }>(
    `DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND expires_at <= ?
     RETURNING output_path`,
  );
  // The claim itself: one atomic insert; a conflict means someone already holds the key.
  const insertClaim = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, created_at, expires_at)
     VALUES (?, ?, ?, 'in_progress', ?, ?)
     ON CONFLICT (api_key_id, key) DO NOTHING`,
  );
  const select = db.prepare<[string, string], IdempotencyRow>(
    'SELECT * FROM idempotency_keys WHERE api_key_id = ? AND key = ?',
  );
  const completeStmt = db.prepare(
    `UPDATE idempotency_keys
     SET status = 'completed', render_id = @renderId, content_type = @contentType,
         output_path = @outputPath, expires_at = @expiresAt
     WHERE api_key_id = @apiKeyId AND key = @key AND status = 'in_progress'`,
  );
  const abandonStmt = db.prepare<[string, string]>(
    "DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND status = 'in_progress'",
  );
  const clearStmt = db.prepare("DELETE FROM idempotency_keys WHERE status = 'in_progress'");
  const purgeStmt = db.prepare<[string], { output_path: string | null }>(
    'DELETE FROM idempotency_keys WHERE expires_at <= ? RETURNING output_path',
  );

  const claim = db.transaction((input: ClaimInput): ClaimResult => {
    const now = input.now ?? new Date();
    const at = now.toISOString();
    // An expired row counts as absent (a 24 h-old in_progress row is a leak, not a live render).
    const stale = takeExpired.get(input.apiKeyId, input.key, at);
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS).toISOString();
    if (
      insertClaim.run(input.apiKeyId, input.key, input.requestHash, at, expiresAt).changes === 1
    ) {
      return { state: 'claimed', staleOutputPath: stale?.output_path ?? null };
    }
    const row = select.get(input.apiKeyId, input.key) as IdempotencyRow;
    if (row.request_hash !== input.requestHash) return { state: 'mismatch' };
    if (row.status === 'in_progress') return { state: 'in-progress' };
    return { state: 'completed', record: toRecord(row) };
  });

  const purge = db.transaction((at: string): string[] =>
    purgeStmt
      .all(at)
      .map((row) => row.output_path)
      .filter((path): path is string => path !== null),
  );

  return {
    claim: (input) => claim.immediate(input),
    complete(input) {
      const now = input.now ?? new Date();
      const ttlMs = input.ttlMs ?? IDEMPOTENCY_RETENTION_MS;
      const changes = completeStmt.run({
        apiKeyId: input.apiKeyId,
        key: input.key,
        renderId: input.renderId,
        contentType: input.contentType,
        outputPath: input.outputPath,
        expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      }).changes;
      if (changes !== 1) {
        throw new AppError(
          'conflict',
          `The Idempotency-Key "${input.key}" is no longer claimed by this request; nothing was recorded.`,
        );
      }
    },
    abandon: ({ apiKeyId, key }) => abandonStmt.run(apiKeyId, key).changes === 1,
    clearInProgress: () => clearStmt.run().changes,
    purgeExpired: (now = new Date()) => purge.immediate(now.toISOString()),
  };
}

function toRecord(row: IdempotencyRow): IdempotencyRecord {
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
