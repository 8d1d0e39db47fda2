import type { PostgresMigration } from '../migrate.js';

/**
 * Deleted workspace templates are purged once no batch names them: their versions, asset rows
 * and files go, and the template's row stays as a tombstone stamped `purged_at` with a new change
 * number, so every node's copy learns to drop its rows and folder too.
 */
export const workspacePurge: PostgresMigration = {
  version: 8,
  name: 'workspace-purge',
  async up(client) {
    await client.query(`
  ALTER TABLE workspace_templates ADD COLUMN purged_at TIMESTAMPTZ;
  CREATE INDEX workspace_templates_deleted ON workspace_templates (deleted_at)
    WHERE deleted_at IS NOT NULL AND purged_at IS NULL;
`);
  },
};
