import type { KeyScope } from '../../../shared/key-scopes.js';
import { newId } from '../ids.js';
import { displayPrefix, hashSecret } from '../rules/api-key-rules.js';
import type { ApiKeyRecord, NewApiKey } from '../types/api-keys.js';

/** An api_keys row, as both stores hold it. */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  scope: KeyScope;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The row a new key is stored as: only the secret's prefix and hash, never the secret. */
export function newApiKeyRow(secret: string, input: NewApiKey): ApiKeyRow {
  return {
    id: newId('key'),
    name: input.name,
    prefix: displayPrefix(secret),
    hash: hashSecret(secret),
    scope: input.scope,
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
}

export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
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
