import { Template } from '../../shared/template-format.js';
import { AppError, Errors } from '../../shared/errors.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { validStored } from '../data/rows/stored-document.js';
import type { WorkspaceTemplateRow } from '../data/rows/workspace-template-rows.js';
import type { Database } from './open-database.js';

export interface WorkspaceTemplateRecord {
  id: string;
  /** The template it was forked from (a `tmpl_` or `wtpl_` id), null for an imported pack. */
  forkedFrom: string | null;
  version: number;
  template: Template;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface WorkspaceTemplatesRepository {
  /** Creates the template at version 1. The template's `id` must be the new id. */
  create(input: { template: Template; forkedFrom: string | null }): WorkspaceTemplateRecord;
  /** The current version of a live template; null when unknown or deleted. */
  get(id: string): WorkspaceTemplateRecord | null;
  /** A given version, even of a deleted template (batches pinned it). */
  getVersion(id: string, version: number): WorkspaceTemplateRecord | null;
  /** Live templates, newest first. */
  list(): WorkspaceTemplateRecord[];
  /**
   * Stores `template` as the next version. With `baseVersion`, refuses (409 version-conflict)
   * when someone saved since that version was read.
   */
  saveVersion(id: string, template: Template, baseVersion?: number): WorkspaceTemplateRecord;
  /** Marks the template deleted; false when unknown or already deleted. */
  markDeleted(id: string): boolean;
  /**
   * Forgets deleted templates that no batch names any more (a batch may be replayed later, so
   * its template's assets stay while it exists); returns their ids so their files can go too.
   */
  purgeDeleted(): string[];
}

interface TemplateRow extends WorkspaceTemplateRow {
  data: string;
  version: number;
  version_created_at: string;
}

const SELECT_WITH_VERSION = `
  SELECT t.*, v.data, v.version, v.created_at AS version_created_at
  FROM workspace_templates t
  JOIN workspace_template_versions v ON v.template_id = t.id`;

export function createWorkspaceTemplatesRepository(db: Database): WorkspaceTemplatesRepository {
  const insertTemplate = db.prepare(
    `INSERT INTO workspace_templates (id, forked_from, current_version, created_at, updated_at)
     VALUES (?, ?, 1, ?, ?)`,
  );
  const insertVersion = db.prepare<[string, number, string, string]>(
    `INSERT INTO workspace_template_versions (template_id, version, data, created_at) VALUES (?, ?, ?, ?)`,
  );
  const selectCurrent = db.prepare<[string], TemplateRow>(
    `${SELECT_WITH_VERSION} AND v.version = t.current_version WHERE t.id = ? AND t.deleted_at IS NULL`,
  );
  const selectVersion = db.prepare<[string, number], TemplateRow>(
    `${SELECT_WITH_VERSION} WHERE t.id = ? AND v.version = ?`,
  );
  const selectLive = db.prepare<[], TemplateRow>(
    `${SELECT_WITH_VERSION} AND v.version = t.current_version
     WHERE t.deleted_at IS NULL ORDER BY t.created_at DESC, t.id`,
  );
  const bumpVersion = db.prepare<[number, string, string]>(
    'UPDATE workspace_templates SET current_version = ?, updated_at = ? WHERE id = ?',
  );
  const markDeleted = db.prepare<[string, string]>(
    'UPDATE workspace_templates SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );

  const selectPurgeable = db.prepare<[], string>(
    `SELECT id FROM workspace_templates t WHERE deleted_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.template_id = t.id)`,
  );
  const deleteTemplate = db.prepare<[string]>('DELETE FROM workspace_templates WHERE id = ?');
  const purge = db.transaction((): string[] => {
    const ids = selectPurgeable.pluck().all();
    for (const id of ids) deleteTemplate.run(id);
    return ids;
  });

  const create = db.transaction((template: Template, forkedFrom: string | null) => {
    const at = new Date().toISOString();
    insertTemplate.run(template.id, forkedFrom, at, at);
    insertVersion.run(template.id, 1, JSON.stringify(template), at);
    return selectCurrent.get(template.id) as TemplateRow;
  });

  const save = db.transaction((id: string, template: Template, baseVersion?: number) => {
    const current = selectCurrent.get(id);
    if (!current) throw Errors.notFound('workspace template', id);
    if (baseVersion !== undefined && baseVersion !== current.current_version) {
      throw new AppError(
        'version-conflict',
        `Template ${id} is at version ${current.current_version}, not ${baseVersion}: it was saved elsewhere since you opened it. Reload it and apply your change again.`,
      );
    }
    const next = current.current_version + 1;
    const at = new Date().toISOString();
    insertVersion.run(id, next, JSON.stringify(template), at);
    bumpVersion.run(next, at, id);
    return selectCurrent.get(id) as TemplateRow;
  });

  return {
    create: ({ template, forkedFrom }) => toRecord(create.immediate(template, forkedFrom)),
    get(id) {
      const row = selectCurrent.get(id);
      return row ? toRecord(row) : null;
    },
    getVersion(id, version) {
      const row = selectVersion.get(id, version);
      return row ? toRecord(row) : null;
    },
    list: () => selectLive.all().map(toRecord),
    saveVersion: (id, template, baseVersion) => toRecord(save.immediate(id, template, baseVersion)),
    markDeleted: (id) => markDeleted.run(new Date().toISOString(), id).changes === 1,
    purgeDeleted: () => purge.immediate(),
  };
}

function toRecord(row: TemplateRow): WorkspaceTemplateRecord {
  const what = `workspace template ${row.id} v${row.version}`;
  return {
    id: row.id,
    forkedFrom: row.forked_from,
    version: row.version,
    template: validStored(Template, JSON.parse(row.data), what, zodProblems),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}
