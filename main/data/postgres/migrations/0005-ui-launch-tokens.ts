import type { PostgresMigration } from '../migrate.js';

/**
 * UI launch links of a cluster: any API node can check one (they are signed with a key every
 * node reads from `settings`), and this table makes each open the app once, whichever node the
 * page trades it on. Only a digest of the token is kept, until it would have expired anyway.
 */
export const uiLaunchTokens: PostgresMigration = {
  version: 5,
  name: 'ui-launch-tokens',
  async up(client) {
    await client.query(`
  CREATE TABLE ui_launch_tokens_spent (
    digest TEXT PRIMARY KEY,
    expires_at TIMESTAMPTZ NOT NULL
  );
  CREATE INDEX ui_launch_tokens_spent_expiry ON ui_launch_tokens_spent (expires_at);
`);
  },
};
