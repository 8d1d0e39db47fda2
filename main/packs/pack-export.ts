import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { foldForSearch } from '../../shared/fold-text.js';
import { layoutLayers } from '../../shared/layout-pages.js';
import type { Template } from '../../shared/template-format.js';
import type { WorkspaceTemplateRecord } from '../store/workspace-templates-repository.js';
import type { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import type { PackFonts } from './pack-fonts.js';
import {
  ASSETS_PREFIX,
  FONTS_PREFIX,
  licencesMarkdown,
  PACK_FORMAT,
  PACK_LICENCES,
  PACK_MANIFEST,
  PACK_TEMPLATE,
  type PackAsset,
  type PackFont,
  type PackLicence,
  type PackManifest,
} from './pack-format.js';

export interface PackExportDeps {
  workspace: WorkspaceTemplates;
  fonts: PackFonts;
  /** The app's version, written as `Render Desk <version>`. */
  version: string;
  /** The origin and licence note of the built-in templates' sample assets, if any. */
  builtInAssetsNote: string | null;
}

export interface PackExport {
  /** `<slug-of-name>.zip`, ASCII only so every browser and file system keeps it. */
  fileName: string;
  stream: Readable;
}

/** Entries get a fixed timestamp, so the same template always gives the same files. */
const ENTRY_TIME = new Date(Date.UTC(2026, 0, 1));
const ENTRY_OPTIONS = { mtime: ENTRY_TIME, mode: 0o100644 };

/** The credits of a built-in template's artwork, copied with its images when it is forked. */
const CREDITS_FILE = 'CREDITS.md';

/** Uploaded assets are named by the upload (`upload-<hash>.<ext>`); the rest came with a fork. */
const UPLOADED_ASSET = /^upload-[0-9a-f]+\.[a-z]+$/;

/**
 * A zip of a workspace template's current version (see pack-format.ts for the layout). Files
 * are hashed first, for the manifest, then streamed: assets are write-once and font files are
 * content-addressed, so the bytes hashed are the bytes sent.
 */
export async function exportPack(
  record: WorkspaceTemplateRecord,
  deps: PackExportDeps,
): Promise<PackExport> {
  const { workspace, fonts } = deps;
  const templateBytes = Buffer.from(`${JSON.stringify(record.template, null, 2)}\n`);

  const assetsDir = workspace.assetsDir(record.id);
  const assets: (PackAsset & { file: string })[] = [];
  let credits: string | null = null;
  for (const name of workspace.assetFiles(record.id)) {
    const file = path.join(assetsDir, ...name.split('/'));
    // A fork of a built-in template has the credits of its artwork beside it: text, which no
    // pack may carry as an asset (an import takes images only), so it joins the licences.
    if (name === CREDITS_FILE) credits = fs.readFileSync(file, 'utf8').trim();
    else assets.push({ path: ASSETS_PREFIX + name, file, ...(await hashFile(file)) });
  }

  const faces = fonts.facesOf(fontFamilies(record.template));
  const packFonts: (PackFont & { file: string })[] = faces
    .map((face) => ({
      path: `${FONTS_PREFIX}${face.sha256.slice(0, 24)}.${face.format}`,
      family: face.family,
      weight: face.weight,
      style: face.style,
      format: face.format,
      sha256: face.sha256,
      size: fs.statSync(face.file).size,
      licence: face.licence,
      file: face.file,
    }))
    .sort((a, b) => a.path.localeCompare(b.path));

  const licences: PackLicence[] = [];
  for (const font of packFonts) {
    licences.push({
      appliesTo: [font.path],
      text:
        `${font.family} ${font.weight} ${font.style}. ` +
        (font.licence ?? 'The font file names no licence; check its terms before sharing it.'),
    });
  }
  const builtIn = assets.filter(
    (asset) => !UPLOADED_ASSET.test(asset.path.slice(ASSETS_PREFIX.length)),
  );
  const builtInNotes = [credits, deps.builtInAssetsNote].filter((note) => note);
  if (builtIn.length > 0 && builtInNotes.length > 0) {
    licences.push({
      appliesTo: builtIn.map((asset) => asset.path),
      text: `These images came with Render Desk's built-in templates.\n\n${builtInNotes.join('\n\n')}`,
    });
  }
  const uploaded = assets.filter((asset) =>
    UPLOADED_ASSET.test(asset.path.slice(ASSETS_PREFIX.length)),
  );
  if (uploaded.length > 0) {
    licences.push({
      appliesTo: uploaded.map((asset) => asset.path),
      text: 'Images added by the author of the template; their rights are the author’s.',
    });
  }

  const manifest: PackManifest = {
    packFormat: PACK_FORMAT,
    createdAt: new Date().toISOString(),
    generator: `Render Desk ${deps.version}`,
    template: {
      id: record.id,
      name: record.template.name,
      forkedFrom: record.forkedFrom,
      version: record.version,
      sha256: sha256(templateBytes),
    },
    assets: assets.map(({ path: name, sha256: hash, size }) => ({
      path: name,
      sha256: hash,
      size,
    })),
    fonts: packFonts.map(({ file: _file, ...font }) => font),
    licences,
  };

  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), PACK_MANIFEST, {
    ...ENTRY_OPTIONS,
    compress: true,
  });
  zip.addBuffer(templateBytes, PACK_TEMPLATE, { ...ENTRY_OPTIONS, compress: true });
  zip.addBuffer(Buffer.from(licencesMarkdown(licences)), PACK_LICENCES, {
    ...ENTRY_OPTIONS,
    compress: true,
  });
  // Images are compressed already; fonts deflate well.
  for (const asset of assets)
    zip.addFile(asset.file, asset.path, { ...ENTRY_OPTIONS, compress: false });
  for (const font of packFonts)
    zip.addFile(font.file, font.path, { ...ENTRY_OPTIONS, compress: true });
  zip.end();
  return { fileName: `${slug(record.template.name)}.zip`, stream: zip.outputStream as Readable };
}

/** The literal font families of the template's text and list layers (brand fonts are values). */
export function fontFamilies(template: Template): string[] {
  const families = new Set<string>();
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layoutLayers(layout)) {
      if (
        (layer.kind === 'text' || layer.kind === 'list') &&
        typeof layer.font.family === 'string'
      ) {
        families.add(layer.font.family);
      }
    }
  }
  return [...families].sort();
}

/** "Khuyến mãi Tết!" → "khuyen-mai-tet". */
export function slug(name: string): string {
  return (
    foldForSearch(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'template'
  );
}

function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
