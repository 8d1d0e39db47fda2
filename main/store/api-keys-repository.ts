import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Errors } from '../../shared/errors.js';
import type { KeyScope } from '../../shared/key-scopes.js';
import type { ApiKeyRecord, ApiKeysRepository, NewApiKey } from '../data/types/api-keys.js';
import { newId } from '../data/ids.js';
import type { Database } from './open-database.js';

export const API_KEY_PREFIX = 'rdk_';
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

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

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

  // Per repository, not per module: each store keeps its own memory of recent touches.
  const lastTouched = new Map<string, number>();

  const insertKey = (secret: string, input: NewApiKey): ApiKeyRecord => {
    const row: ApiKeyRow = {
      id: newId('key'),
      name: input.name,
      prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
      hash: hashSecret(secret),
      scope: input.scope,
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    insert.run(row);
    return toRecord(row);
  };

  const ensure = db.transaction((secret: string, input: NewApiKey): ApiKeyRecord => {
    checkSecret(secret);
    const existing = byHash.get(hashSecret(secret));
    if (!existing) return insertKey(secret, input);
    if (existing.revoked_at !== null) {
      reinstate.run(input.scope, existing.id);
      return toRecord(byId.get(existing.id) as ApiKeyRow);
    }
    return toRecord(existing);
  });

  return {
    create(input) {
      const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
      return { record: insertKey(secret, input), secret };
    },
    ensure: (secret, input) => ensure.immediate(secret, input),
    authenticate(secret) {
      if (typeof secret !== 'string' || secret.length === 0 || secret.length > MAX_SECRET_LENGTH) {
        return null;
      }
      const presented = createHash('sha256').update(secret, 'utf8').digest();
      const row = byHash.get(presented.toString('hex'));
      // The lookup is by hash (an index seek), then a constant-time compare of the stored hash.
      const stored = row ? Buffer.from(row.hash, 'hex') : DUMMY_HASH;
      const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
      if (!row || !matches || row.revoked_at !== null) return null;
      return toRecord(row);
    },
    list: () => all.all().map(toRecord),
    get(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : null;
    },
    revoke: (id) => revokeStmt.run(new Date().toISOString(), id).changes === 1,
    touch(id, now = new Date()) {
      // Skip even the UPDATE (and its brief write lock) when this process wrote recently.
      const last = lastTouched.get(id);
      if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
      lastTouched.set(id, now.getTime());
      const threshold = new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
      touchStmt.run(now.toISOString(), id, threshold);
    },
    count: () => countActive.get() as number,
  };
}

function checkSecret(secret: string): void {
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
