import type { Migration } from '../migrate.js';
import { API_KEY_SCOPE_COLUMN } from '../../data/schema/api-key-scope-column.js';

/**
 * API keys get a scope (shared/key-scopes.ts) instead of an admin flag. Admin keys stay admin;
 * every other key could render, run batches and upload before, so it becomes `render`.
 */
export const apiKeyScopes: Migration = {
  version: 10,
  name: 'api-key-scopes',
  up(db) {
    db.exec(`
      ALTER TABLE api_keys ADD COLUMN ${API_KEY_SCOPE_COLUMN};
      UPDATE api_keys SET scope = 'admin' WHERE admin = 1;
      ALTER TABLE api_keys DROP COLUMN admin;
      -- A key's own batches, newest first (GET /v1/render-batches for non-admin keys).
      CREATE INDEX batches_by_key ON batches (api_key_id, created_at);
    `);
  },
};
