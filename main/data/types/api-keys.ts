import type { ApiKeyRecord } from '../../../shared/api-schemas.js';
import type { KeyScope } from '../../../shared/key-scopes.js';

/** An API key as shown to people (never the secret): what GET /v1/api-keys lists. */
export type { ApiKeyRecord };

export interface NewApiKey {
  name: string;
  scope: KeyScope;
}

export interface ApiKeysRepository {
  /** Makes a key; the secret is returned here once and stored only as its SHA-256. */
  create(input: NewApiKey): { record: ApiKeyRecord; secret: string };
  /**
   * Makes sure an active key with exactly this secret exists (RENDER_DESK_API_KEY). Idempotent.
   * An existing key keeps its name; a revoked one is reinstated with `scope`, because the
   * environment is the operator's standing instruction.
   */
  ensure(secret: string, input: NewApiKey): ApiKeyRecord;
  /** The active key with this secret, or null. Unknown and revoked keys look the same. */
  authenticate(secret: unknown): ApiKeyRecord | null;
  list(): ApiKeyRecord[];
  get(id: string): ApiKeyRecord | null;
  /** True when an active key was revoked by this call. */
  revoke(id: string): boolean;
  /** Records use; writes at most once a minute per key so a busy script costs no fsyncs. */
  touch(id: string, now?: Date): void;
  /** Active (not revoked) keys. */
  count(): number;
}
