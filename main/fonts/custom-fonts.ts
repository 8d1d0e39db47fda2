import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, Errors } from '../../shared/errors.js';
import type { CustomFont, FontFamilyInfo, FontList } from '../../shared/font-schemas.js';
import { mergeRanges, type CoverageRanges } from '../engine/font-coverage.js';
import { readFontManifest } from '../engine/font-manifest.js';
import { writeFileDurably } from '../files/write-file-durably.js';
import type { CustomFontFace } from '../render/render-protocol.js';
import type { CustomFontsRepository } from '../store/custom-fonts-repository.js';
import type { CustomFontRecord } from '../data/types/custom-font-record.js';
import { newId } from '../data/ids.js';
import { scriptsCovered } from './font-scripts.js';
import type { SharedWorkspace } from '../workspace/shared-workspace.js';
import { readFont } from './read-font.js';

/** A font bigger than this is refused by the upload route (413): real fonts are far smaller. */
export const FONT_BODY_LIMIT = 20 * 1024 * 1024;

interface BundledFamily {
  family: string;
  coverage: CoverageRanges;
  faces: Array<{ weight: number; style: 'normal' | 'italic' }>;
}

/**
 * Fonts the user uploaded: checked (a whole font, loadable by the engine), stored in
 * `<dir>/<sha256>.<ext>` with a row holding family, style and coverage, and handed to every
 * render job so each worker can register them.
 */
export class CustomFonts {
  private readonly bundled = new Map<string, BundledFamily>();

  constructor(
    private readonly repository: CustomFontsRepository,
    /** `<dataDir>/fonts` */
    readonly dir: string,
    bundledFontsDir: string,
    /** In a cluster: where writes go first; the repository is then this node's copy. */
    private readonly shared?: SharedWorkspace,
  ) {
    for (const entry of readFontManifest(bundledFontsDir).families) {
      const faces = entry.files
        .map(({ weight, style }) => ({ weight, style }))
        .filter(
          (f, i, all) => all.findIndex((g) => g.weight === f.weight && g.style === f.style) === i,
        );
      this.bundled.set(entry.family.toLowerCase(), {
        family: entry.family,
        coverage: entry.coverage ?? [],
        faces,
      });
    }
  }

  /**
   * Checks and stores a font. The same bytes again return the stored font (`created: false`);
   * another file for an installed family, weight and style is a conflict.
   */
  async upload(
    bytes: Uint8Array,
    originalName: string | null,
  ): Promise<{ font: CustomFont; created: boolean }> {
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const existing = this.repository.bySha256(sha256);
    if (existing) return { font: toApi(existing), created: false };

    const info = await readFont(bytes);
    const bundled = this.bundled.get(info.family.toLowerCase());
    if (bundled) {
      throw new AppError(
        'conflict',
        `"${bundled.family}" is a bundled font and is always available; there is no need to upload it. To use your own version, upload a copy whose family has another name.`,
      );
    }
    // Keep the spelling of a family already installed: faces of one family share one name.
    const family =
      this.repository.list().find((f) => f.family.toLowerCase() === info.family.toLowerCase())
        ?.family ?? info.family;
    const clash = this.repository.face(family, info.weight, info.style);
    if (clash) {
      throw new AppError(
        'conflict',
        `${describeFace(clash)} is already installed (${clash.id}, from ${clash.originalName ?? 'an earlier upload'}) with different contents. Delete it first (DELETE /v1/fonts/${clash.id}) to replace it.`,
        { extensions: { existingId: clash.id } },
      );
    }
    proveLoadable(bytes, sha256);

    const fileName = `${sha256}.${info.format}`;
    const file = path.join(this.dir, fileName);
    if (!fs.existsSync(file)) await writeFileDurably(file, bytes);
    const record: CustomFontRecord = {
      id: newId('font'),
      family,
      weight: info.weight,
      style: info.style,
      format: info.format,
      size: bytes.byteLength,
      sha256,
      scripts: info.scripts,
      licence: info.licence,
      originalName: originalName?.trim().slice(0, 255) || null,
      createdAt: new Date().toISOString(),
      fileName,
      coverage: info.coverage,
    };
    try {
      if (this.shared) await this.shared.insertFont(record, file);
      else this.repository.insert(record);
    } catch (error) {
      // The same upload twice at once: the other request stored it first.
      await this.shared?.pull();
      const stored = this.repository.bySha256(sha256);
      if (stored) return { font: toApi(stored), created: false };
      throw error;
    }
    return { font: toApi(record), created: true };
  }

  get(id: string): CustomFont {
    const record = this.repository.get(id);
    if (!record) throw Errors.notFound('font', id);
    return toApi(record);
  }

  /** Removes the row, then the file (unless another row names the same file). */
  async remove(id: string): Promise<boolean> {
    // The node's copy removes the file itself once the delete reaches it.
    if (this.shared) return this.shared.removeFont(id);
    const record = this.repository.get(id);
    if (!record || !this.repository.remove(id)) return false;
    if (!this.repository.list().some((f) => f.fileName === record.fileName)) {
      fs.rmSync(path.join(this.dir, record.fileName), { force: true });
    }
    return true;
  }

  record(id: string): CustomFontRecord | null {
    return this.repository.get(id);
  }

  /** Bundled families first (manifest order), then custom ones by name. */
  list(): FontList {
    const families: FontFamilyInfo[] = [...this.bundled.values()].map((b) => ({
      family: b.family,
      source: 'bundled',
      scripts: scriptsCovered(b.coverage),
      faces: b.faces.map((f) => ({ id: null, ...f })),
    }));
    const custom = new Map<string, CustomFontRecord[]>();
    for (const record of this.repository.list()) {
      const key = record.family.toLowerCase();
      custom.set(key, [...(custom.get(key) ?? []), record]);
    }
    for (const faces of custom.values()) {
      families.push({
        family: faces[0]!.family,
        source: 'custom',
        scripts: scriptsCovered(unionCoverage(faces)),
        faces: faces.map((f) => ({ id: f.id, weight: f.weight, style: f.style })),
      });
    }
    return { families };
  }

  /** Every custom face, for render jobs: workers register them by file. */
  faces(): CustomFontFace[] {
    return this.repository.list().map((f) => ({
      family: f.family,
      path: path.join(this.dir, f.fileName),
      weight: f.weight,
      style: f.style,
    }));
  }

  isBundled(family: string): boolean {
    return this.bundled.has(family.trim().toLowerCase());
  }

  /** The code points a bundled family draws, or null when the family is not bundled. */
  bundledCoverage(family: string): CoverageRanges | null {
    return this.bundled.get(family.trim().toLowerCase())?.coverage ?? null;
  }

  /** The installed faces of a custom family (case-insensitive); empty when not installed. */
  customFaces(family: string): CustomFontRecord[] {
    const key = family.trim().toLowerCase();
    return this.repository.list().filter((f) => f.family.toLowerCase() === key);
  }

  /**
   * The face the engine draws a layer with: the same style if there is one, then the nearest
   * weight (heavier wins a tie, as CSS does for weights above 500), like Skia's matching.
   */
  faceFor(family: string, weight: number, style: 'normal' | 'italic'): CustomFontRecord | null {
    const faces = this.customFaces(family);
    const sameStyle = faces.filter((f) => f.style === style);
    const candidates = sameStyle.length > 0 ? sameStyle : faces;
    let best: CustomFontRecord | null = null;
    for (const face of candidates) {
      if (!best) best = face;
      else {
        const distance = Math.abs(face.weight - weight);
        const bestDistance = Math.abs(best.weight - weight);
        if (distance < bestDistance || (distance === bestDistance && face.weight > best.weight)) {
          best = face;
        }
      }
    }
    return best;
  }

  /**
   * For brand profiles and other places that name a family: throws 422 validation-failed when it
   * is neither bundled nor uploaded.
   */
  checkFontFamily(family: string, problemPath: string): void {
    if (this.isBundled(family) || this.customFaces(family).length > 0) return;
    throw Errors.validation([{ path: problemPath, message: notInstalledMessage(family) }]);
  }
}

export function notInstalledMessage(family: string): string {
  return `no font named "${family}" is installed; upload it first (POST /v1/fonts) or use a bundled font`;
}

function unionCoverage(faces: CustomFontRecord[]): CoverageRanges {
  return mergeRanges(faces.flatMap((f) => f.coverage.map((r): [number, number] => [r[0], r[1]])));
}

function describeFace(face: { family: string; weight: number; style: string }): string {
  return `${face.family} ${face.weight}${face.style === 'italic' ? ' italic' : ''}`;
}

/**
 * The canvas's native module, loaded at the first upload: a command-line run or an API thread
 * that only lists fonts need not load it (tens of milliseconds of a cached batch's start).
 */
function loadCanvas(): typeof Canvas {
  return createRequire(import.meta.url)('@napi-rs/canvas') as typeof Canvas;
}

/**
 * The last word on whether a font loads is the engine's. Registering also enters the font under
 * its own family name, so it goes in under a throwaway alias and comes straight out again: this
 * thread's font registry ends as it began.
 */
function proveLoadable(bytes: Uint8Array, sha256: string): void {
  const { GlobalFonts } = loadCanvas();
  const key = GlobalFonts.register(Buffer.from(bytes), `render-desk-probe-${sha256.slice(0, 16)}`);
  if (!key) {
    throw new AppError(
      'font-invalid',
      'The font engine cannot load this font, although its tables look whole. Try another file of the font (TTF or OTF).',
    );
  }
  GlobalFonts.remove(key);
}

function toApi(record: CustomFontRecord): CustomFont {
  return {
    id: record.id,
    family: record.family,
    weight: record.weight,
    style: record.style,
    format: record.format,
    size: record.size,
    sha256: record.sha256,
    scripts: record.scripts,
    licence: record.licence,
    originalName: record.originalName,
    createdAt: record.createdAt,
  };
}
