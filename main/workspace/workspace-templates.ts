import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, Errors, type Problem } from '../../shared/errors.js';
import { placedLayers } from '../../shared/layout-pages.js';
import { Template } from '../../shared/template-format.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { templateRatios, type CatalogEntry } from '../catalog/load-catalog.js';
import { newWorkspaceTemplateId } from '../data/ids.js';
import type {
  WorkspaceTemplateRecord,
  WorkspaceTemplatesRepository,
} from '../store/workspace-templates-repository.js';
import type { SharedWorkspace } from './shared-workspace.js';
import { templateReferenceProblems } from './template-references.js';

/** The parts of a template an edit may replace; the id is never editable. */
export const EDITABLE_KEYS = [
  // Raised to 2 to opt into format 2's layout and text features; never lowered (see update).
  'schemaVersion',
  'name',
  'description',
  'category',
  'subCategory',
  'market',
  'locale',
  'tags',
  'variables',
  'sampleValues',
  'layouts',
  'primaryLayout',
] as const;

/** Files an asset of a workspace template may be (what the engine's image loader decodes). */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** Extra checks an owner of the service adds (e.g. custom fonts that cannot draw the text). */
export type TemplateCheck = (template: Template) => Problem[];

/**
 * Workspace templates (`wtpl_…`): forked from a built-in or another workspace template, edited
 * version by version. Assets are write-once files in `<root>/<id>/assets`, so every version that
 * names an asset keeps rendering the same bytes.
 */
export class WorkspaceTemplates {
  private readonly checks: TemplateCheck[] = [];

  constructor(
    private readonly repository: WorkspaceTemplatesRepository,
    readonly rootDir: string,
    /** In a cluster: where writes go first; the repository is then this node's copy. */
    private readonly shared?: SharedWorkspace,
  ) {}

  addCheck(check: TemplateCheck): void {
    this.checks.push(check);
  }

  assetsDir(id: string): string {
    return path.join(this.rootDir, id, 'assets');
  }

  get(id: string): WorkspaceTemplateRecord | null {
    return id.startsWith('wtpl_') ? this.repository.get(id) : null;
  }

  /** The live template, or 404 not-found. */
  require(id: string): WorkspaceTemplateRecord {
    const record = this.get(id);
    if (!record) throw Errors.notFound('workspace template', id);
    return record;
  }

  list(): WorkspaceTemplateRecord[] {
    return this.repository.list();
  }

  /** The current version as the engine sees a template; undefined when unknown or deleted. */
  entry(id: string): CatalogEntry | undefined {
    const record = this.get(id);
    return record ? this.toEntry(record) : undefined;
  }

  toEntry(record: WorkspaceTemplateRecord): CatalogEntry {
    return {
      template: record.template,
      assetsDir: this.assetsDir(record.id),
      ratios: templateRatios(record.template),
      version: record.version,
      order: 0,
    };
  }

  /** A copy of `source` (its template and every asset file) under a new id. */
  async fork(source: CatalogEntry, name?: string): Promise<WorkspaceTemplateRecord> {
    const id = newWorkspaceTemplateId();
    const template: Template = {
      ...structuredClone(source.template),
      id,
      name: name?.trim() || `${source.template.name} (copy)`.slice(0, 120),
      createdAt: new Date().toISOString().slice(0, 10),
    };
    // The fork's own folder is still empty: its assets are checked where they are copied from.
    this.validate(template, { assetsDir: source.assetsDir });
    const assets = this.assetsDir(id);
    fs.mkdirSync(assets, { recursive: true });
    try {
      copyAssets(source.assetsDir, assets);
      return await this.create(template, source.template.id);
    } catch (error) {
      fs.rmSync(path.join(this.rootDir, id), { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Installs a template whose assets are already in `stagedAssetsDir` (a pack import): the folder
   * is moved into place and the row written, or neither. Assets are checked where they are
   * staged, since the new id has no folder until the rename.
   */
  async install(
    template: Template,
    stagedAssetsDir: string,
    forkedFrom: string | null = null,
  ): Promise<WorkspaceTemplateRecord> {
    const id = newWorkspaceTemplateId();
    const installed = this.validate({ ...template, id }, { assetsDir: stagedAssetsDir });
    const dir = path.join(this.rootDir, id);
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.renameSync(stagedAssetsDir, path.join(dir, 'assets'));
      return await this.create(installed, forkedFrom);
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Applies an edit (top-level keys of the template replace the stored ones) as a new version.
   * The result is validated as a whole: 422 with the path of every problem.
   */
  async update(
    id: string,
    changes: Record<string, unknown>,
    baseVersion?: number,
  ): Promise<WorkspaceTemplateRecord> {
    const current = this.require(id);
    const unknown = Object.keys(changes).filter(
      (key) => !(EDITABLE_KEYS as readonly string[]).includes(key),
    );
    if (unknown.length > 0) {
      throw Errors.validation(
        unknown.map((key) => ({
          path: key,
          message:
            key === 'id' || key === 'createdAt'
              ? 'cannot be changed'
              : `unknown property; editable are ${EDITABLE_KEYS.join(', ')}`,
        })),
      );
    }
    if (
      typeof changes.schemaVersion === 'number' &&
      changes.schemaVersion < current.template.schemaVersion
    ) {
      throw Errors.validation([
        {
          path: 'schemaVersion',
          message: `cannot go back from format ${current.template.schemaVersion}; fork the built-in template again for a format 1 copy`,
        },
      ]);
    }
    const merged: Record<string, unknown> = { ...current.template, ...changes, id };
    // A layout removed by an edit takes the preference for it along, unless the edit names one.
    const layouts = merged.layouts as Record<string, unknown> | undefined;
    if (
      !('primaryLayout' in changes) &&
      typeof merged.primaryLayout === 'string' &&
      !(layouts && merged.primaryLayout in layouts)
    )
      delete merged.primaryLayout;
    const template = this.validate(merged);
    if (!this.shared) return this.repository.saveVersion(id, template, baseVersion);
    await this.shared.saveTemplateVersion(id, template, baseVersion);
    return this.require(id);
  }

  /** Validates a whole template: schema, references, assets present, the owner's checks. */
  validate(
    input: unknown,
    options: {
      /** Where the assets are, when not yet in the template's folder (a staged import). */
      assetsDir?: string;
      /** false: leave out the owners' checks (a pack's fonts are not installed yet). */
      ownerChecks?: boolean;
    } = {},
  ): Template {
    const parsed = Template.safeParse(input);
    if (!parsed.success) throw Errors.validation(zodProblems(parsed.error));
    const template = parsed.data;
    const problems = templateReferenceProblems(template);
    if (template.id.startsWith('wtpl_')) {
      problems.push(
        ...this.assetProblems(template, options.assetsDir ?? this.assetsDir(template.id)),
      );
    }
    if (Object.keys(template.layouts).length === 0) {
      problems.push({ path: 'layouts', message: 'a template needs at least one ratio layout' });
    }
    if (problems.length === 0 && options.ownerChecks !== false) {
      for (const check of this.checks) problems.push(...check(template));
    }
    if (problems.length > 0) throw Errors.validation(problems);
    return template;
  }

  async remove(id: string): Promise<boolean> {
    if (!id.startsWith('wtpl_')) return false;
    return this.shared ? this.shared.markTemplateDeleted(id) : this.repository.markDeleted(id);
  }

  /** Removes the rows and files of deleted templates no batch needs any more (at startup). */
  purgeDeleted(): string[] {
    const ids = this.repository.purgeDeleted();
    for (const id of ids) fs.rmSync(path.join(this.rootDir, id), { recursive: true, force: true });
    return ids;
  }

  /** Stores an image as a new asset of the template; returns the name layers refer to. */
  async addAsset(id: string, bytes: Uint8Array, extension: string): Promise<string> {
    this.require(id);
    const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 24);
    const name = `upload-${hash}.${extension}`;
    const file = path.join(this.assetsDir(id), name);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, bytes);
      fs.renameSync(temp, file);
    }
    await this.shared?.addTemplateAsset(id, name, file);
    return name;
  }

  private async create(
    template: Template,
    forkedFrom: string | null,
  ): Promise<WorkspaceTemplateRecord> {
    if (!this.shared) return this.repository.create({ template, forkedFrom });
    await this.shared.createTemplate({
      template,
      forkedFrom,
      assetsDir: this.assetsDir(template.id),
    });
    return this.require(template.id);
  }

  /** The asset files of a template (for packs): names relative to its assets folder. */
  assetFiles(id: string): string[] {
    const dir = this.assetsDir(id);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .map((name) => name.split(path.sep).join('/'))
      .sort();
  }

  /**
   * Fixed artwork and sample images must be the template's own files: a template is shared as a
   * pack, and a path on this machine (or outside its folder) would not travel with it.
   */
  private assetProblems(template: Template, dir: string): Problem[] {
    const problems: Problem[] = [];
    const isAsset = (name: string) => {
      const file = path.resolve(dir, name);
      return file.startsWith(path.resolve(dir) + path.sep) && fs.existsSync(file);
    };
    for (const [ratio, layout] of Object.entries(template.layouts)) {
      for (const { layer, path: layerPath } of placedLayers(ratio, layout)) {
        if (layer.kind !== 'image' || !('asset' in layer.source)) continue;
        const asset = layer.source.asset;
        if (!isAsset(asset)) {
          problems.push({
            path: `${layerPath}.source.asset`,
            message: `the template has no asset "${asset}"`,
          });
        }
      }
    }
    for (const variable of template.variables) {
      const sample = template.sampleValues[variable.name];
      if (variable.type !== 'image' || typeof sample !== 'string' || sample.trim() === '') continue;
      if (sample.startsWith('data:image/')) continue;
      if (sample.startsWith('asset:') && isAsset(sample.slice('asset:'.length))) continue;
      problems.push({
        path: `sampleValues.${variable.name}`,
        message: `a sample image must be one of the template's own images ("asset:<file>", uploaded with the editor) or a data: URI, not "${sample.slice(0, 80)}"`,
      });
    }
    return problems;
  }
}

function copyAssets(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === 'template.json') continue;
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(path.join(to, entry.name), { recursive: true });
      copyAssets(source, path.join(to, entry.name));
    } else if (entry.isFile()) {
      fs.copyFileSync(source, path.join(to, entry.name));
    }
  }
}

/** A name for an uploaded asset is ours to choose; this checks names coming from packs. */
export function isSafeAssetName(name: string): boolean {
  return name.split('/').every((part) => ASSET_NAME.test(part) && part !== '..');
}

export function conflict(message: string): AppError {
  return new AppError('conflict', message);
}
