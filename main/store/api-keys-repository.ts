import type { KeyScope } from '../../shared/key-scopes.js';
import { newApiKeyRow, toApiKeyRecord, type ApiKeyRow } from '../data/rows/api-key-rows.js';
import * as apiKeyRules from '../data/rules/api-key-rules.js';
import type { ApiKeyRecord, ApiKeysRepository, NewApiKey } from '../data/types/api-keys.js';
import type { Database } from './open-database.js';

export function createApiKeysRepository(db: Database): ApiKeysRepository {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, name, prefix, hash, scope, created_at)
     VALUES (@id, @name, @prefix, @hash, @scope, @created_at)`,
  );
  const byId = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const byHash = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE hash = ?');
  const all = db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
  const reinstate = db.prepare<[KeyScope, string]>(
    'UPDATE api_keys SET revoked_at = NULL, scope = ? WHERE id = ?',
  );
  const revokeStmt = db.prepare<[string, string]>(
    'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const touchStmt = db.prepare<[string, string, string]>(
    `UPDATE api_keys SET last_used_at = ?
     WHERE id = ? AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < ?)`,
  );
  const countActive = db
    .prepare<[], number>('SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL')
    .pluck();

  const touches = new apiKeyRules.TouchThrottle();

  const insertKey = (secret: string, input: NewApiKey): ApiKeyRecord => {
    const row = newApiKeyRow(secret, input);
    insert.run(row);
    return toApiKeyRecord(row);
  };

  const ensure = db.transaction((secret: string, input: NewApiKey): ApiKeyRecord => {
    apiKeyRules.checkSecret(secret);
    const existing = byHash.get(apiKeyRules.hashSecret(secret));
    if (!existing) return insertKey(secret, input);
    if (existing.revoked_at !== null) {
      reinstate.run(input.scope, existing.id);
      return toApiKeyRecord(byId.get(existing.id) as ApiKeyRow);
    }
    return toApiKeyRecord(existing);
  });

  return {
    create(input) {
      const secret = apiKeyRules.newSecret();
      return { record: insertKey(secret, input), secret };
    },
    ensure: (secret, input) => ensure.immediate(secret, input),
    authenticate(secret) {
      const presented = apiKeyRules.presentedHash(secret);
      if (!presented) return null;
      const row = byHash.get(presented.toString('hex')) ?? null;
      return apiKeyRules.isActiveMatch(row, presented) ? toApiKeyRecord(row) : null;
    },
    list: () => all.all().map(toApiKeyRecord),
    get(id) {
      const row = byId.get(id);
      return row ? toApiKeyRecord(row) : null;
    },
    revoke: (id) => revokeStmt.run(new Date().toISOString(), id).changes === 1,
    touch(id, now = new Date()) {
      // Skip even the UPDATE (and its brief write lock) when this process wrote recently.
      const threshold = touches.threshold(id, now);
      if (threshold !== null) touchStmt.run(now.toISOString(), id, threshold);
    },
    count: () => countActive.get() as number,
  };
}
