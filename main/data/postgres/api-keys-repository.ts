import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import { newApiKeyRow, toApiKeyRecord, type ApiKeyRow } from '../rows/api-key-rows.js';
import * as apiKeyRules from '../rules/api-key-rules.js';
import type { ApiKeysRepository, NewApiKey } from '../types/api-keys.js';
import { inTransaction } from './transaction.js';
import type { Queryable } from './transaction.js';

export type PostgresApiKeys = AsyncPort<ApiKeysRepository>;

const COLUMNS = 'id, name, prefix, hash, scope, created_at, last_used_at, revoked_at';

/** API keys, stored as SHA-256 hashes, shared by every API node. */
export function postgresApiKeys(pool: pg.Pool): PostgresApiKeys {
  const touches = new apiKeyRules.TouchThrottle();

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
    const row = newApiKeyRow(secret, input);
    const result = await db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, name, prefix, hash, scope, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (hash) DO NOTHING
       RETURNING ${COLUMNS}`,
      [row.id, row.name, row.prefix, row.hash, row.scope, row.created_at],
    );
    return result.rows[0] ?? null;
  };

  return {
    async create(input) {
      const secret = apiKeyRules.newSecret();
      const row = await insertKey(pool, secret, input);
      if (!row) throw new Error('A freshly generated API key collided with a stored one.');
      return { record: toApiKeyRecord(row), secret };
    },
    async ensure(secret, input) {
      apiKeyRules.checkSecret(secret);
      return inTransaction(pool, async (client) => {
        const hash = apiKeyRules.hashSecret(secret);
        const existing =
          (await byHash(client, hash, true)) ??
          (await insertKey(client, secret, input)) ??
          // Another node inserted it between our read and our insert: use theirs.
          (await byHash(client, hash, true));
        if (!existing) throw new Error('The API key vanished while it was being ensured.');
        if (existing.revoked_at === null) return toApiKeyRecord(existing);
        const reinstated = await client.query<ApiKeyRow>(
          `UPDATE api_keys SET revoked_at = NULL, scope = $1 WHERE id = $2 RETURNING ${COLUMNS}`,
          [input.scope, existing.id],
        );
        return toApiKeyRecord(reinstated.rows[0] as ApiKeyRow);
      });
    },
    async authenticate(secret) {
      const presented = apiKeyRules.presentedHash(secret);
      if (!presented) return null;
      const row = await byHash(pool, presented.toString('hex'));
      return apiKeyRules.isActiveMatch(row, presented) ? toApiKeyRecord(row) : null;
    },
    async list() {
      const result = await pool.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`,
      );
      return result.rows.map(toApiKeyRecord);
    },
    async get(id) {
      const result = await pool.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [
        id,
      ]);
      const row = result.rows[0];
      return row ? toApiKeyRecord(row) : null;
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
      const threshold = touches.threshold(id, now);
      if (threshold === null) return;
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
