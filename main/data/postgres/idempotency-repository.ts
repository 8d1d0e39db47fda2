import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import type { IdempotencyRow } from '../rows/idempotency-rows.js';
import { claimLost, expiresAfter, heldClaim } from '../rules/idempotency-rules.js';
import type { CompleteInput, IdempotencyRepository } from '../types/idempotency.js';
import { inTransaction } from './transaction.js';
import type { Queryable } from './transaction.js';

export type PostgresIdempotency = AsyncPort<IdempotencyRepository>;

/**
 * Marks a claim completed: inside the transaction that debits the render, so the charge and the
 * replay record commit or roll back together. Throws `conflict` when the claim is gone.
 */
export async function completeClaim(db: Queryable, input: CompleteInput): Promise<void> {
  const result = await db.query(
    `UPDATE idempotency_keys
     SET status = 'completed', render_id = $3, content_type = $4, output_path = $5, expires_at = $6
     WHERE api_key_id = $1 AND key = $2 AND status = 'in_progress'`,
    [
      input.apiKeyId,
      input.key,
      input.renderId,
      input.contentType,
      input.outputPath,
      expiresAfter(input.now ?? new Date(), input.ttlMs),
    ],
  );
  if (result.rowCount !== 1) throw claimLost(input.key);
}

/** Idempotency keys, shared by every API node: a key claimed on one is in use on all. */
export function postgresIdempotency(pool: pg.Pool): PostgresIdempotency {
  return {
    claim: (input) =>
      inTransaction(pool, async (client) => {
        const now = input.now ?? new Date();
        const at = now.toISOString();
        // An expired row counts as absent (a 24 h-old in_progress row is a leak, not a live render).
        const stale = await client.query<{ output_path: string | null }>(
          `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND expires_at <= $3
           RETURNING output_path`,
          [input.apiKeyId, input.key, at],
        );
        // The claim itself: one atomic insert; a conflict means someone already holds the key
        // (a concurrent insert on another node waits here for that node's commit).
        const inserted = await client.query(
          `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, created_at, expires_at)
           VALUES ($1, $2, $3, 'in_progress', $4, $5)
           ON CONFLICT (api_key_id, key) DO NOTHING`,
          [input.apiKeyId, input.key, input.requestHash, at, expiresAfter(now)],
        );
        if (inserted.rowCount === 1) {
          return { state: 'claimed', staleOutputPath: stale.rows[0]?.output_path ?? null };
        }
        const found = await client.query<IdempotencyRow>(
          'SELECT * FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
          [input.apiKeyId, input.key],
        );
        const row = found.rows[0];
        // Gone between the insert and the read (abandoned meanwhile): a retry will claim it.
        if (!row) return { state: 'in-progress' };
        return heldClaim(row, input.requestHash);
      }),
    complete: (input) => completeClaim(pool, input),
    async abandon({ apiKeyId, key }) {
      const result = await pool.query(
        "DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND status = 'in_progress'",
        [apiKeyId, key],
      );
      return result.rowCount === 1;
    },
    async clearInProgress() {
      const result = await pool.query("DELETE FROM idempotency_keys WHERE status = 'in_progress'");
      return result.rowCount ?? 0;
    },
    async purgeExpired(now = new Date()) {
      const result = await pool.query<{ output_path: string | null }>(
        'DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING output_path',
        [now.toISOString()],
      );
      return result.rows
        .map((row) => row.output_path)
        .filter((path): path is string => path !== null);
    },
  };
}
