import type { Migration } from '../migrate.js';

/**
 * Workspace templates (`wtpl_…`): editable copies of built-in templates. Every save is a new
 * immutable version, so a batch that pinned a version renders the same bytes later. Deleting a
 * template marks it deleted; its versions and assets stay for the batches that pinned them.
 */
export const workspaceTemplates: Migration = {
  version: 7,
  name: 'workspace-templates',
  up(db) {
    db.exec(`
      CREATE TABLE workspace_templates (
        id TEXT PRIMARY KEY CHECK (id LIKE 'wtpl\\_%' ESCAPE '\\'),
        forked_from TEXT,
        current_version INTEGER NOT NULL CHECK (current_version >= 1),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      ) STRICT;
      CREATE INDEX workspace_templates_live ON workspace_templates (deleted_at, created_at);

      CREATE TABLE workspace_template_versions (
        template_id TEXT NOT NULL REFERENCES workspace_templates (id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        data TEXT NOT NULL CHECK (json_valid(data)),
        created_at TEXT NOT NULL,
        PRIMARY KEY (template_id, version)
      ) STRICT, WITHOUT ROWID;

      ALTER TABLE batches ADD COLUMN template_version INTEGER;
    `);
  },
};
