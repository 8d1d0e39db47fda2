import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Errors } from '../../../shared/errors.js';

/** The rules for API key secrets, the same in the embedded store and in a cluster's database. */

export const API_KEY_PREFIX = 'rdk_';
/** How much of a secret is kept in clear, so people can tell their keys apart. */
const DISPLAY_PREFIX_LENGTH = 12;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 512;
const TOUCH_INTERVAL_MS = 60_000;
// Compared against when no row matches, so an unknown key does the same work as a revoked one.
const DUMMY_HASH = Buffer.alloc(32);

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new key's secret: the prefix and 256 random bits. */
export function newSecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The part of the secret stored in clear. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Refuses a secret given by the operator (RENDER_DESK_API_KEY) that is not usable as a key. */
export function checkSecret(secret: string): void {
  // A Bearer token must be one visible-ASCII word; short secrets are refused as guessable.
  const problems: string[] = [];
  if (secret.length < MIN_SECRET_LENGTH) problems.push(`at least ${MIN_SECRET_LENGTH} characters`);
  if (secret.length > MAX_SECRET_LENGTH) problems.push(`at most ${MAX_SECRET_LENGTH} characters`);
  if (!/^[\x21-\x7e]*$/.test(secret)) problems.push('visible ASCII characters only, no spaces');
  if (problems.length > 0) {
    throw Errors.validation(
      [{ path: 'apiKey', message: `An API key needs ${problems.join(' and ')}.` }],
      `The API key is not usable: it needs ${problems.join(' and ')}.`,
    );
  }
}

/** The SHA-256 of a presented secret, or null for one no key can have (empty, too long, no text). */
export function presentedHash(secret: unknown): Buffer | null {
  if (typeof secret !== 'string' || secret.length === 0 || secret.length > MAX_SECRET_LENGTH) {
    return null;
  }
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Whether the row found by the presented hash is an active key with exactly that hash. The row
 * is looked up by hash (an index seek), then its stored hash is compared in constant time, also
 * when no row matched.
 */
export function isActiveMatch<R extends { hash: string; revoked_at: string | null }>(
  row: R | null,
  presented: Buffer,
): row is R {
  const stored = row ? Buffer.from(row.hash, 'hex') : DUMMY_HASH;
  const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
  return row !== null && matches && row.revoked_at === null;
}

/**
 * Remembers when this process last recorded a key's use, so a busy script costs one write a
 * minute per key. One per repository: each store, each node, keeps its own memory.
 */
export class TouchThrottle {
  private readonly lastTouched = new Map<string, number>();

  /** The last-used time older than which the key's row is written now; null to skip the write. */
  threshold(id: string, now: Date): string | null {
    const last = this.lastTouched.get(id);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return null;
    this.lastTouched.set(id, now.getTime());
    return new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
  }
}
