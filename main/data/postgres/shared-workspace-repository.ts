import type pg from 'pg';
import { AppError, Errors } from '../../../shared/errors.js';
import { toCustomFontRecord, type CustomFontRow } from '../rows/custom-font-rows.js';
import type { WorkspaceTemplateRow } from '../rows/workspace-template-rows.js';
import type { CustomFontRecord } from '../types/custom-font-record.js';
import type { WorkspaceChanges, WorkspaceFontChange } from '../types/workspace-changes.js';
import { ADVISORY_KEYS } from './advisory-keys.js';
import { isUniqueViolation } from './postgres-errors.js';
import { inTransaction } from './transaction.js';

/**
 * Workspace templates and uploaded fonts in PostgreSQL, for a cluster. Every write runs under one
 * transaction-scoped advisory lock and stamps what it wrote with the next number of
 * `workspace_change_seq`, so numbers become visible in order and `changesSince(n)` never skips a
 * write that commits late.
 */
export class SharedWorkspaceRepository {
  constructor(private readonly pool: pg.Pool) {}

  async createTemplate(input: {
    id: string;
    templateJson: string;
    forkedFrom: string | null;
    assets: string[];
  }): Promise<void> {
    await this.write(async (client, seq) => {
      await client.query(
        `INSERT INTO workspace_templates
           (id, forked_from, current_version, created_at, updated_at, change_seq)
         VALUES ($1, $2, 1, now(), now(), $3)`,
        [input.id, input.forkedFrom, seq],
      );
      await client.query(
        `INSERT INTO workspace_template_versions (template_id, version, data, created_at, change_seq)
         VALUES ($1, 1, $2, now(), $3)`,
        [input.id, input.templateJson, seq],
      );
      await insertAssets(client, input.id, input.assets, seq);
    });
  }

  /** The next version; 409 version-conflict when `baseVersion` is no longer the current one. */
  async saveVersion(id: string, templateJson: string, baseVersion?: number): Promise<void> {
    await this.write(async (client, seq) => {
      const current = await client.query<{ current_version: number }>(
        `SELECT current_version FROM workspace_templates
          WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
        [id],
      );
      const version = current.rows[0]?.current_version;
      if (version === undefined) throw Errors.notFound('workspace template', id);
      if (baseVersion !== undefined && baseVersion !== version) {
        throw new AppError(
          'version-conflict',
          `Template ${id} is at version ${version}, not ${baseVersion}: it was saved elsewhere since you opened it. Reload it and apply your change again.`,
        );
      }
      await client.query(
        `INSERT INTO workspace_template_versions (template_id, version, data, created_at, change_seq)
         VALUES ($1, $2, $3, now(), $4)`,
        [id, version + 1, templateJson, seq],
      );
      await client.query(
        `UPDATE workspace_templates SET current_version = $2, updated_at = now(), change_seq = $3
          WHERE id = $1`,
        [id, version + 1, seq],
      );
    });
  }

  async markTemplateDeleted(id: string): Promise<boolean> {
    return this.tombstone('workspace_templates', id);
  }

  /**
   * Deleted templates whose delete is older than `graceMs` and that no batch names (a batch may
   * be replayed, and renders the template's assets), not yet purged.
   */
  async purgeableTemplates(graceMs: number): Promise<string[]> {
    const result = await this.pool.query<{ id: string }>(
      `SELECT id FROM workspace_templates t
        WHERE deleted_at IS NOT NULL AND purged_at IS NULL
          AND deleted_at < now() - make_interval(secs => $1::double precision / 1000)
          AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.template_id = t.id)
        ORDER BY deleted_at LIMIT 100`,
      [graceMs],
    );
    return result.rows.map((row) => row.id);
  }

  /**
   * Drops a deleted template's versions and asset rows and stamps its tombstone purged (its files
   * are removed first by the caller). False when it is not purgeable any more.
   */
  async markTemplatePurged(id: string): Promise<boolean> {
    return this.write(async (client, seq) => {
      const result = await client.query(
        `UPDATE workspace_templates t SET purged_at = now(), change_seq = $2
          WHERE id = $1 AND deleted_at IS NOT NULL AND purged_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.template_id = t.id)`,
        [id, seq],
      );
      if (result.rowCount !== 1) return false;
      await client.query('DELETE FROM workspace_template_versions WHERE template_id = $1', [id]);
      await client.query('DELETE FROM workspace_template_assets WHERE template_id = $1', [id]);
      return true;
    });
  }

  async addTemplateAsset(id: string, name: string): Promise<void> {
    await this.write((client, seq) => insertAssets(client, id, [name], seq));
  }

  /** 409 conflict when another file already holds this family, weight and style. */
  async insertFont(record: CustomFontRecord): Promise<void> {
    try {
      await this.write(async (client, seq) => {
        await client.query(
          `INSERT INTO custom_fonts (id, family, weight, style, format, file_name, original_name,
             sha256, size, coverage, scripts, licence, created_at, change_seq)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            record.id,
            record.family,
            record.weight,
            record.style,
            record.format,
            record.fileName,
            record.originalName,
            record.sha256,
            record.size,
            JSON.stringify(record.coverage),
            JSON.stringify(record.scripts),
            record.licence,
            record.createdAt,
            seq,
          ],
        );
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new AppError(
        'conflict',
        `${record.family} ${record.weight} ${record.style} was installed by someone else at the same time. Reload the font list; delete that font first to replace it.`,
      );
    }
  }

  async removeFont(id: string): Promise<boolean> {
    return this.tombstone('custom_fonts', id);
  }

  /**
   * Marks a row deleted as a change of its own; the row stays (a tombstone) so copies learn of
   * the delete. False when there is no such row or it was already deleted.
   */
  private tombstone(table: 'workspace_templates' | 'custom_fonts', id: string): Promise<boolean> {
    return this.write(async (client, seq) => {
      const result = await client.query(
        `UPDATE ${table} SET deleted_at = now(), change_seq = $2
          WHERE id = $1 AND deleted_at IS NULL`,
        [id, seq],
      );
      return result.rowCount === 1;
    });
  }

  /** The highest change number committed so far (0 for an empty workspace). */
  async head(): Promise<number> {
    const result = await this.pool.query<{ head: number }>(
      `SELECT GREATEST(
         (SELECT max(change_seq) FROM workspace_templates),
         (SELECT max(change_seq) FROM workspace_template_versions),
         (SELECT max(change_seq) FROM workspace_template_assets),
         (SELECT max(change_seq) FROM custom_fonts), 0)::bigint AS head`,
    );
    return result.rows[0]?.head ?? 0;
  }

  async changesSince(seen: number): Promise<WorkspaceChanges> {
    return inTransaction(
      this.pool,
      async (client) => {
        const templates = await client.query<
          WorkspaceTemplateRow & { purged_at: string | null; change_seq: number }
        >('SELECT * FROM workspace_templates WHERE change_seq > $1 ORDER BY change_seq', [seen]);
        const versions = await client.query<{
          template_id: string;
          version: number;
          data: string;
          created_at: string;
          change_seq: number;
        }>('SELECT * FROM workspace_template_versions WHERE change_seq > $1 ORDER BY change_seq', [
          seen,
        ]);
        const assets = await client.query<{
          template_id: string;
          name: string;
          change_seq: number;
        }>('SELECT * FROM workspace_template_assets WHERE change_seq > $1 ORDER BY change_seq', [
          seen,
        ]);
        const fonts = await client.query<FontRow>(
          'SELECT * FROM custom_fonts WHERE change_seq > $1 ORDER BY change_seq',
          [seen],
        );
        const head = Math.max(
          seen,
          ...[templates, versions, assets, fonts].flatMap((r) =>
            r.rows.map((row) => row.change_seq),
          ),
        );
        return {
          head,
          templates: templates.rows.map((row) => ({
            id: row.id,
            forkedFrom: row.forked_from,
            currentVersion: row.current_version,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
            deletedAt: row.deleted_at,
            purgedAt: row.purged_at,
          })),
          versions: versions.rows.map((row) => ({
            templateId: row.template_id,
            version: row.version,
            data: row.data,
            createdAt: row.created_at,
          })),
          assets: assets.rows.map((row) => ({ templateId: row.template_id, name: row.name })),
          fonts: fonts.rows.map(toFontRow),
        };
      },
      { mode: 'ISOLATION LEVEL REPEATABLE READ, READ ONLY' },
    );
  }

  private write<T>(work: (client: pg.PoolClient, seq: number) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_KEYS.workspace]);
      const next = await client.query<{ seq: number }>(
        "SELECT nextval('workspace_change_seq')::bigint AS seq",
      );
      return work(client, next.rows[0]!.seq);
    });
  }
}

interface FontRow extends CustomFontRow {
  deleted_at: string | null;
  change_seq: number;
}

function toFontRow(row: FontRow): WorkspaceFontChange {
  return { ...toCustomFontRecord(row), deletedAt: row.deleted_at };
}

async function insertAssets(
  client: pg.PoolClient,
  templateId: string,
  names: string[],
  seq: number,
): Promise<void> {
  if (names.length === 0) return;
  await client.query(
    `INSERT INTO workspace_template_assets (template_id, name, change_seq)
     SELECT $1, name, $3 FROM unnest($2::text[]) AS name
     ON CONFLICT (template_id, name) DO NOTHING`,
    [templateId, names, seq],
  );
}
