import type { PostgresMigration } from '../migrate.js';
import { CUSTOM_FONT_COLUMNS } from '../../schema/custom-font-columns.js';

/**
 * Workspace templates and uploaded fonts, shared by every node of a cluster. PostgreSQL holds the
 * rows; the files (template assets, font files) are in the object store. Each node keeps a local
 * copy of both and follows `change_seq`: every write takes the next number of one sequence while
 * holding one advisory lock, so numbers are committed in order and a reader that has seen N has
 * seen everything up to N. Deleted fonts stay as tombstones so copies learn of the delete.
 */
export const sharedWorkspace: PostgresMigration = {
  version: 4,
  name: 'shared-workspace',
  async up(client) {
    await client.query(`
  CREATE SEQUENCE workspace_change_seq;

  CREATE TABLE workspace_templates (
    id TEXT PRIMARY KEY CHECK (id LIKE 'wtpl\\_%'),
    forked_from TEXT,
    current_version INTEGER NOT NULL CHECK (current_version >= 1),
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    deleted_at TIMESTAMPTZ,
    change_seq BIGINT NOT NULL
  );
  CREATE INDEX workspace_templates_changes ON workspace_templates (change_seq);

  CREATE TABLE workspace_template_versions (
    template_id TEXT NOT NULL REFERENCES workspace_templates (id) ON DELETE CASCADE,
    version INTEGER NOT NULL CHECK (version >= 1),
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    change_seq BIGINT NOT NULL,
    PRIMARY KEY (template_id, version)
  );
  CREATE INDEX workspace_template_versions_changes ON workspace_template_versions (change_seq);

  CREATE TABLE workspace_template_assets (
    template_id TEXT NOT NULL REFERENCES workspace_templates (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    change_seq BIGINT NOT NULL,
    PRIMARY KEY (template_id, name)
  );
  CREATE INDEX workspace_template_assets_changes ON workspace_template_assets (change_seq);

  CREATE TABLE custom_fonts (
    id TEXT PRIMARY KEY CHECK (id LIKE 'font\\_%'),
    ${CUSTOM_FONT_COLUMNS},
    coverage TEXT NOT NULL,
    scripts TEXT NOT NULL,
    licence TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    deleted_at TIMESTAMPTZ,
    change_seq BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX custom_fonts_face ON custom_fonts (lower(family), weight, style)
    WHERE deleted_at IS NULL;
  CREATE INDEX custom_fonts_changes ON custom_fonts (change_seq);
`);
  },
};
