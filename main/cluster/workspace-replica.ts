import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Template } from '../../shared/template-format.js';
import type { SharedWorkspaceRepository } from '../data/postgres/shared-workspace-repository.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { CustomFontRecord } from '../data/types/custom-font-record.js';
import type { WorkspaceMirror } from '../store/workspace-mirror.js';
import { templateObjectPrefix } from './template-purge.js';
import type { SharedWorkspace } from '../workspace/shared-workspace.js';

/** How often a node looks for workspace writes made elsewhere, besides before requests. */
export const WORKSPACE_POLL_MS = 2_000;

export function templateAssetKey(templateId: string, name: string): string {
  return `${templateObjectPrefix(templateId)}assets/${name}`;
}

export function fontKey(fileName: string): string {
  return `fonts/${fileName}`;
}

export interface WorkspaceReplicaDeps {
  repository: SharedWorkspaceRepository;
  objects: ObjectStore;
  mirror: WorkspaceMirror;
  /** This node's folder of a template's assets (what the engine reads). */
  assetsDir: (templateId: string) => string;
  /** This node's folder of font files. */
  fontsDir: string;
  log: (message: string, detail?: unknown) => void;
}

/**
 * A cluster node's copy of the shared workspace (templates, their assets, uploaded fonts). Writes
 * put their files in the object store, then commit the rows in PostgreSQL, then pull: any node
 * that sees a row can already fetch its files, and the writing node answers only once its own
 * copy has the change. Pulls fetch files before rows reach the copy, so a template or font the
 * engine can see always has its files on this node.
 */
export class WorkspaceReplica implements SharedWorkspace {
  private seen = 0;
  private pulling: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: WorkspaceReplicaDeps) {}

  /** Pulls now and then every `WORKSPACE_POLL_MS`; stop with `stop()`. */
  async start(): Promise<void> {
    await this.pull();
    this.timer = setInterval(() => {
      this.pullIfBehind().catch((error: unknown) =>
        this.deps.log('the shared workspace could not be read', error),
      );
    }, WORKSPACE_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async createTemplate(input: {
    template: Template;
    forkedFrom: string | null;
    assetsDir: string;
  }): Promise<void> {
    const names = listFiles(input.assetsDir);
    await Promise.all(
      names.map((name) =>
        this.deps.objects.putFile(
          templateAssetKey(input.template.id, name),
          path.join(input.assetsDir, name),
        ),
      ),
    );
    await this.deps.repository.createTemplate({
      id: input.template.id,
      templateJson: JSON.stringify(input.template),
      forkedFrom: input.forkedFrom,
      assets: names,
    });
    await this.pull();
  }

  async saveTemplateVersion(id: string, template: Template, baseVersion?: number): Promise<void> {
    await this.deps.repository.saveVersion(id, JSON.stringify(template), baseVersion);
    await this.pull();
  }

  async markTemplateDeleted(id: string): Promise<boolean> {
    const deleted = await this.deps.repository.markTemplateDeleted(id);
    await this.pull();
    return deleted;
  }

  async addTemplateAsset(id: string, name: string, file: string): Promise<void> {
    await this.deps.objects.putFile(templateAssetKey(id, name), file);
    await this.deps.repository.addTemplateAsset(id, name);
    await this.pull();
  }

  async insertFont(record: CustomFontRecord, file: string): Promise<void> {
    await this.deps.objects.putFile(fontKey(record.fileName), file);
    await this.deps.repository.insertFont(record);
    await this.pull();
  }

  async removeFont(id: string): Promise<boolean> {
    const removed = await this.deps.repository.removeFont(id);
    await this.pull();
    return removed;
  }

  /** One pull at a time; a pull asked for while one runs runs once more after it. */
  pull(): Promise<void> {
    if (this.pulling) {
      this.again = true;
      return this.pulling;
    }
    this.pulling = (async () => {
      try {
        do {
          this.again = false;
          await this.pullOnce();
        } while (this.again);
      } finally {
        this.pulling = undefined;
      }
    })();
    return this.pulling;
  }

  /** Pulls when another node wrote since the last pull (one small query otherwise). */
  async pullIfBehind(): Promise<void> {
    if ((await this.deps.repository.head()) > this.seen) await this.pull();
  }

  private async pullOnce(): Promise<void> {
    const changes = await this.deps.repository.changesSince(this.seen);
    if (changes.head === this.seen) return;
    const { objects, assetsDir, fontsDir } = this.deps;
    await Promise.all([
      ...changes.assets.map(({ templateId, name }) =>
        download(
          objects,
          templateAssetKey(templateId, name),
          path.join(assetsDir(templateId), name),
        ),
      ),
      ...changes.fonts
        .filter((font) => !font.deletedAt)
        .map((font) =>
          download(objects, fontKey(font.fileName), path.join(fontsDir, font.fileName)),
        ),
    ]);
    const { removedFontFiles, purgedTemplates } = this.deps.mirror.apply(changes);
    for (const file of removedFontFiles) fs.rmSync(path.join(fontsDir, file), { force: true });
    // A template's folder holds its assets folder (and nothing any other template needs).
    for (const id of purgedTemplates)
      fs.rmSync(path.dirname(assetsDir(id)), { recursive: true, force: true });
    this.seen = changes.head;
  }
}

/** Fetches an object to `file` unless it is there (shared files never change once written). */
async function download(objects: ObjectStore, key: string, file: string): Promise<void> {
  if (fs.existsSync(file)) return;
  const stream = await objects.getStream(key);
  if (!stream)
    throw new Error(`The shared workspace names ${key}, but the object store has no such object.`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    await pipeline(stream, fs.createWriteStream(temp));
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Every file under `dir`, as `/`-separated names relative to it. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}
