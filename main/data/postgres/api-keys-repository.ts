import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { Errors } from '../../../shared/errors.js';
import type { KeyScope } from '../../../shared/key-scopes.js';
import type { AsyncPort } from '../async-port.js';
import { API_KEY_PREFIX, hashSecret } from '../../store/api-keys-repository.js';
import type { ApiKeyRecord, ApiKeysRepository, NewApiKey } from '../types/api-keys.js';
import { newId } from '../ids.js';
import { inTransaction } from './transaction.js';
import type { Queryable } from './transaction.js';

export type PostgresApiKeys = AsyncPort<ApiKeysRepository>;

const DISPLAY_PREFIX_LENGTH = 12;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 512;
const TOUCH_INTERVAL_MS = 60_000;
// Compared against when no row matches, so an unknown key does the same work as a revoked one.
const DUMMY_HASH = Buffer.alloc(32);

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  scope: KeyScope;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = 'id, name, prefix, hash, scope, created_at, last_used_at, revoked_at';

/** API keys, stored as SHA-256 hashes, shared by every API node. */
export function postgresApiKeys(pool: pg.Pool): PostgresApiKeys {
  // Per repository, not per module: each node keeps its own memory of recent touches.
  const lastTouched = new Map<string, number>();

  const byHash = async (db: Queryable, hash: string, lock = false): Promise<ApiKeyRow | null> => {
    const result = await db.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [hash],
    );
    return result.rows[0] ?? null;
  };

  /** Inserts the key unless another node stored the same secret first (then: null). */
  const insertKey = async (
    db: Queryable,
    secret: string,
    input: NewApiKey,
  ): Promise<ApiKeyRow | null> => {
    const result = await db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, name, prefix, hash, scope, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (hash) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        newId('key'),
        input.name,
        secret.slice(0, DISPLAY_PREFIX_LENGTH),
        hashSecret(secret),
        input.scope,
        new Date().toISOString(),
      ],
    );
    return result.rows[0] ?? null;
  };

  return {
    async create(input) {
      const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
      const row = await insertKey(pool, secret, input);
      if (!row) throw new Error('A freshly generated API key collided with a stored one.');
      return { record: toRecord(row), secret };
    },
    async ensure(secret, input) {
      checkSecret(secret);
      return inTransaction(pool, async (client) => {
        const hash = hashSecret(secret);
        const existing =
          (await byHash(client, hash, true)) ??
          (await insertKey(client, secret, input)) ??
          // Another node inserted it between our read and our insert: use theirs.
          (await byHash(client, hash, true));
        if (!existing) throw new Error('The API key vanished while it was being ensured.');
        if (existing.revoked_at === null) return toRecord(existing);
        const reinstated = await client.query<ApiKeyRow>(
          `UPDATE api_keys SET revoked_at = NULL, scope = $1 WHERE id = $2 RETURNING ${COLUMNS}`,
          [input.scope, existing.id],
        );
        return toRecord(reinstated.rows[0] as ApiKeyRow);
      });
    },
    async authenticate(secret) {
      if (typeof secret !== 'string' || secret.length === 0 || secret.length > MAX_SECRET_LENGTH) {
        return null;
      }
      const presented = createHash('sha256').update(secret, 'utf8').digest();
      const row = await byHash(pool, presented.toString('hex'));
      // The lookup is by hash (an index seek), then a constant-time compare of the stored hash.
      const stored = row ? Buffer.from(row.hash, 'hex') : DUMMY_HASH;
      const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
      if (!row || !matches || row.revoked_at !== null) return null;
      return toRecord(row);
    },
    async list() {
      const result = await pool.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`,
      );
      return result.rows.map(toRecord);
    },
    async get(id) {
      const result = await pool.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [
        id,
      ]);
      const row = result.rows[0];
      return row ? toRecord(row) : null;
    },
    async revoke(id) {
      const result = await pool.query(
        'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
        [new Date().toISOString(), id],
      );
      return result.rowCount === 1;
    },
    async touch(id, now = new Date()) {
      // Skip even the UPDATE when this node wrote recently.
      const last = lastTouched.get(id);
      if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
      lastTouched.set(id, now.getTime());
      const threshold = new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
      await pool.query(
        `UPDATE api_keys SET last_used_at = $1
         WHERE id = $2 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < $3)`,
        [now.toISOString(), id, threshold],
      );
    },
    async count() {
      const result = await pool.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL',
      );
      return result.rows[0]?.n ?? 0;
    },
  };
}

/** The same rule and wording as the embedded store: a Bearer token is one visible-ASCII word. */
function checkSecret(secret: string): void {
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

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    admin: row.scope === 'admin',
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
