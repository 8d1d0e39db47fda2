import { AppError } from '../../../shared/errors.js';
import { toIdempotencyRecord, type IdempotencyRow } from '../rows/idempotency-rows.js';
import type { ClaimResult } from '../types/idempotency.js';

/** The rules for Idempotency-Keys, the same in both stores; the claim itself is one SQL insert. */

/** How long a completed render can be replayed with its Idempotency-Key (published in the docs). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** When a record made at `now` expires (ISO). */
export function expiresAfter(now: Date, ttlMs = IDEMPOTENCY_RETENTION_MS): string {
  return new Date(now.getTime() + ttlMs).toISOString();
}

/** What a request finds when another request already holds its key. */
export function heldClaim(row: IdempotencyRow, requestHash: string): ClaimResult {
  if (row.request_hash !== requestHash) return { state: 'mismatch' };
  if (row.status === 'in_progress') return { state: 'in-progress' };
  return { state: 'completed', record: toIdempotencyRecord(row) };
}

/** Completing a claim that is gone (expired and taken, or abandoned): nothing is recorded. */
export function claimLost(key: string): AppError {
  return new AppError(
    'conflict',
    `The Idempotency-Key "${key}" is no longer claimed by this request; nothing was recorded.`,
  );
}
