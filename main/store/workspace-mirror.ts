import { toCustomFontRow } from '../data/rows/custom-font-rows.js';
import type { WorkspaceChanges } from '../data/types/workspace-changes.js';
import type { Database } from './open-database.js';

/** What a node copies from its cluster's shared workspace (the assets are files, not rows). */
export type MirroredChanges = Pick<WorkspaceChanges, 'templates' | 'versions' | 'fonts'>;

/**
 * The node-local copy of a cluster's shared workspace: rows read from PostgreSQL are written into
 * the same SQLite tables the embedded app uses, so every reader (template lookups in renders,
 * font lists, coverage checks) stays synchronous and unchanged. Applying the same changes twice
 * changes nothing.
 */
export interface WorkspaceMirror {
  apply(changes: MirroredChanges): { removedFontFiles: string[]; purgedTemplates: string[] };
}

export function createWorkspaceMirror(db: Database): WorkspaceMirror {
  const upsertTemplate = db.prepare(
    `INSERT INTO workspace_templates (id, forked_from, current_version, created_at, updated_at, deleted_at)
     VALUES (@id, @forkedFrom, @currentVersion, @createdAt, @updatedAt, @deletedAt)
     ON CONFLICT (id) DO UPDATE SET current_version = excluded.current_version,
       updated_at = excluded.updated_at, deleted_at = excluded.deleted_at`,
  );
  const insertVersion = db.prepare(
    `INSERT OR IGNORE INTO workspace_template_versions (template_id, version, data, created_at)
     VALUES (@templateId, @version, @data, @createdAt)`,
  );
  const insertFont = db.prepare(
    `INSERT OR IGNORE INTO custom_fonts (id, family, weight, style, format, file_name, original_name,
       sha256, size, coverage, scripts, licence, created_at)
     VALUES (@id, @family, @weight, @style, @format, @file_name, @original_name, @sha256, @size,
       @coverage, @scripts, @licence, @created_at)`,
  );
  const fontFile = db.prepare<[string], string>('SELECT file_name FROM custom_fonts WHERE id = ?');
  const deleteFont = db.prepare<[string]>('DELETE FROM custom_fonts WHERE id = ?');
  // Its versions go with it (ON DELETE CASCADE).
  const deleteTemplate = db.prepare<[string]>('DELETE FROM workspace_templates WHERE id = ?');
  const fileInUse = db.prepare<[string], number>(
    'SELECT count(*) FROM custom_fonts WHERE file_name = ?',
  );

  const apply = db.transaction((changes: MirroredChanges) => {
    // Template rows before their versions (the versions' foreign key). A save stamps the row and
    // its new version with the same change number, so both arrive together.
    const purgedTemplates: string[] = [];
    for (const template of changes.templates) {
      if (template.purgedAt) {
        deleteTemplate.run(template.id);
        purgedTemplates.push(template.id);
        continue;
      }
      const { purgedAt: _purged, ...row } = template;
      upsertTemplate.run(row);
    }
    for (const version of changes.versions) insertVersion.run(version);
    const removedFontFiles: string[] = [];
    for (const font of changes.fonts) {
      if (font.deletedAt) {
        const file = fontFile.pluck().get(font.id);
        if (deleteFont.run(font.id).changes === 1 && file && fileInUse.pluck().get(file) === 0)
          removedFontFiles.push(file);
        continue;
      }
      insertFont.run(toCustomFontRow(font));
    }
    return { removedFontFiles, purgedTemplates };
  });

  return { apply: (changes) => apply.immediate(changes) };
}
