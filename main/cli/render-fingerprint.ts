import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RenderJob } from '../render/render-protocol.js';
// Key order and whitespace ignored, as for the API's Idempotency-Key fingerprints.
import { canonicalJson } from '../server/idempotency-key.js';

/** Bumped when what a fingerprint covers changes, so older cache entries are not trusted. */
const FINGERPRINT_FORMAT = 2;

const ENGINE_DIR = fileURLToPath(new URL('../engine', import.meta.url));
/**
 * A compiled copy of the core (bin/compiled-core.mjs) records here the hash of the engine sources
 * it was compiled from, so that it keys renders as the TypeScript sources do.
 */
export const engineSourcesFile = fileURLToPath(new URL('../engine.sha256', import.meta.url));

/**
 * The content hash of everything that decides a render's bytes: the engine's code, the template
 * (its JSON and every file in its folder), the bundled fonts (by their manifest, which lists each
 * file's content hash: 11 MB of fonts need not be read to key a render), the custom fonts, the
 * resolved values (images by their bytes, not their paths) and every output option of the job. Two jobs with the
 * same fingerprint draw the same image, which is what lets a cache skip rendering one.
 * Folders are hashed once per process; image files once per path.
 */
export class RenderFingerprints {
  private readonly folders = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly templates = new WeakMap<object, string>();
  private bundledFonts: string | undefined;
  private engineHash: string | undefined;

  constructor(
    private readonly fontsDir: string,
    private readonly engineDir = ENGINE_DIR,
  ) {}

  of(job: RenderJob): string {
    const { template, assetsDir, values, fonts, measureOnly: _measureOnly, ...options } = job;
    let templateHash = this.templates.get(template);
    if (templateHash === undefined) {
      templateHash = sha256(canonicalJson(template));
      this.templates.set(template, templateHash);
    }
    return sha256(
      canonicalJson({
        format: FINGERPRINT_FORMAT,
        engine: this.engine(),
        bundledFonts: this.fontManifest(),
        template: templateHash,
        templateFiles: this.folder(assetsDir),
        customFonts: (fonts ?? []).map((face) => ({
          family: face.family,
          weight: face.weight,
          style: face.style,
          // Stored fonts are named by their content's sha256; hashed anyway if one is not.
          file: this.file(face.path),
        })),
        values: this.values(values),
        options,
      }),
    );
  }

  private fontManifest(): string {
    this.bundledFonts ??= sha256(fs.readFileSync(path.join(this.fontsDir, 'fonts.json')));
    return this.bundledFonts;
  }

  private engine(): string {
    this.engineHash ??=
      this.engineDir === ENGINE_DIR && fs.existsSync(engineSourcesFile)
        ? fs.readFileSync(engineSourcesFile, 'utf8')
        : this.folder(this.engineDir);
    return this.engineHash;
  }

  private values(values: RenderJob['values']): unknown {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        out[name] =
          value.kind === 'file'
            ? { image: this.file(value.path) }
            : { image: sha256(value.bytes), mime: value.mime };
      } else out[name] = value;
    }
    return out;
  }

  private file(file: string): string {
    let hash = this.files.get(file);
    if (hash === undefined) {
      hash = sha256(fs.readFileSync(file));
      this.files.set(file, hash);
    }
    return hash;
  }

  private folder(dir: string): string {
    let hash = this.folders.get(dir);
    if (hash === undefined) {
      hash = folderHash(dir);
      this.folders.set(dir, hash);
    }
    return hash;
  }
}

/** Every file's relative path and content, in a stable order. */
export function folderHash(dir: string): string {
  const digest = crypto.createHash('sha256');
  const walk = (relative: string) => {
    const entries = fs
      .readdirSync(path.join(dir, relative), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) {
        digest.update(`${name}\0`);
        digest.update(sha256(fs.readFileSync(path.join(dir, name))));
      }
    }
  };
  if (fs.existsSync(dir)) walk('');
  return digest.digest('hex');
}

function sha256(data: string | Uint8Array): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}
