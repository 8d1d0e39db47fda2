import type { PostgresMigration } from '../migrate.js';
import { API_KEY_SCOPE_COLUMN } from '../../schema/api-key-scope-column.js';

/**
 * API keys get a scope instead of an admin flag, as in SQLite version 10: admin keys stay admin,
 * every other key becomes `render` (what it could do before).
 */
export const apiKeyScopes: PostgresMigration = {
  version: 2,
  name: 'api-key-scopes',
  async up(client) {
    await client.query(`
      ALTER TABLE api_keys ADD COLUMN ${API_KEY_SCOPE_COLUMN};
      UPDATE api_keys SET scope = 'admin' WHERE admin;
      ALTER TABLE api_keys DROP COLUMN admin;
      -- A key's own batches, newest first (GET /v1/render-batches for non-admin keys).
      CREATE INDEX batches_by_key ON batches (api_key_id, created_at);
    `);
  },
};
