import type { IdempotencyRow } from '../data/rows/idempotency-rows.js';
import { claimLost, expiresAfter, heldClaim } from '../data/rules/idempotency-rules.js';
import type { ClaimInput, ClaimResult, IdempotencyRepository } from '../data/types/idempotency.js';
import type { Database } from './open-database.js';

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
    const expiresAt = expiresAfter(now);
    if (
      insertClaim.run(input.apiKeyId, input.key, input.requestHash, at, expiresAt).changes === 1
    ) {
      return { state: 'claimed', staleOutputPath: stale?.output_path ?? null };
    }
    return heldClaim(select.get(input.apiKeyId, input.key) as IdempotencyRow, input.requestHash);
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
      const changes = completeStmt.run({
        apiKeyId: input.apiKeyId,
        key: input.key,
        renderId: input.renderId,
        contentType: input.contentType,
        outputPath: input.outputPath,
        expiresAt: expiresAfter(input.now ?? new Date(), input.ttlMs),
      }).changes;
      if (changes !== 1) throw claimLost(input.key);
    },
    abandon: ({ apiKeyId, key }) => abandonStmt.run(apiKeyId, key).changes === 1,
    clearInProgress: () => clearStmt.run().changes,
    purgeExpired: (now = new Date()) => purge.immediate(now.toISOString()),
  };
}
