import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, isAppError } from '../../shared/errors.js';
import { TEMPLATE_SCHEMA_VERSION, type Template } from '../../shared/template-format.js';
import { zodProblems } from '../../shared/zod-problems.js';
import type { ArchiveLimits } from '../ingest/zip/zip-limits.js';
import { jsonShape, MAX_JSON_DEPTH, MAX_JSON_OBJECT_KEYS } from '../json/json-depth.js';
import type { WorkspaceTemplateRecord } from '../store/workspace-templates-repository.js';
import { checkTemplateAsset } from '../workspace/template-asset.js';
import type { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import type { PackFonts } from './pack-fonts.js';
import {
  ASSETS_PREFIX,
  FONTS_PREFIX,
  MANIFEST_MAX_BYTES,
  PACK_FORMAT,
  PACK_LICENCES,
  PACK_MANIFEST,
  PACK_TEMPLATE,
  PackManifest,
  TEMPLATE_MAX_BYTES,
} from './pack-format.js';
import { PACK_LIMITS, PackZip, packInvalid } from './pack-zip.js';

export interface PackImportDeps {
  workspace: WorkspaceTemplates;
  fonts: PackFonts;
  limits?: ArchiveLimits;
}

/** Staging folders of imports live beside the templates, so installing is a rename. */
export const STAGING_PREFIX = '.pack-import-';

/** Stands in for the new id while the template is checked against its staged assets. */
const PROBE_ID = 'wtpl_pack_import';

/**
 * Imports a pack as a new workspace template. Everything is unpacked into a fresh staging folder
 * and checked there (names, limits, every listed sha256, nothing unlisted, the template valid
 * against its staged assets, no font conflicting with an installed one); only then are the fonts
 * installed and the assets folder renamed into place with the template's row. On any failure
 * the staging folder is removed and no template is created.
 */
export async function importPack(
  zipBytes: Buffer,
  deps: PackImportDeps,
): Promise<WorkspaceTemplateRecord> {
  const { workspace, fonts } = deps;
  fs.mkdirSync(workspace.rootDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(workspace.rootDir, STAGING_PREFIX));
  let zip: PackZip | undefined;
  try {
    const zipFile = path.join(staging, 'pack.zip');
    fs.writeFileSync(zipFile, zipBytes);
    zip = await PackZip.open(zipFile, deps.limits ?? PACK_LIMITS);
    const hashes = await zip.hashAll();
    const manifest = parseManifest(await readRequired(zip, PACK_MANIFEST, MANIFEST_MAX_BYTES));
    checkListing(zip, manifest);
    for (const file of [...manifest.assets, ...manifest.fonts]) {
      verify(file.path, hashes.get(file.path)!, file);
    }

    const stagedAssets = path.join(staging, 'assets');
    const stagedFonts = path.join(staging, 'fonts');
    fs.mkdirSync(stagedAssets);
    fs.mkdirSync(stagedFonts);
    for (const asset of manifest.assets) {
      const target = path.join(stagedAssets, ...asset.path.slice(ASSETS_PREFIX.length).split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      verify(asset.path, await zip.extract(asset.path, target), asset);
      await checkPackAsset(asset.path, target);
    }
    for (const font of manifest.fonts) {
      const target = path.join(stagedFonts, font.path.slice(FONTS_PREFIX.length));
      verify(font.path, await zip.extract(font.path, target), font);
    }
    const templateBytes = await readRequired(zip, PACK_TEMPLATE, TEMPLATE_MAX_BYTES);
    verify(
      PACK_TEMPLATE,
      {
        sha256: sha256(templateBytes),
        size: templateBytes.length,
      },
      { sha256: manifest.template.sha256, size: templateBytes.length },
    );
    zip.close();
    zip = undefined;

    const template = checkTemplate(templateBytes, workspace, stagedAssets);
    checkFontConflicts(manifest, fonts);
    // Fonts before the template: once the template exists it must render as it did. A font
    // installed for an import that then fails stays, unused, like any uploaded font.
    for (const font of manifest.fonts) {
      const bytes = fs.readFileSync(path.join(stagedFonts, font.path.slice(FONTS_PREFIX.length)));
      await fonts.install(bytes, {
        family: font.family,
        weight: font.weight,
        style: font.style,
        format: font.format,
      });
    }
    return await rewrapValidation(() => workspace.install(template, stagedAssets, null));
  } finally {
    zip?.close();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Template images are drawn without the checks image values get: each must be a whole PNG, JPEG
 * or WebP within the pixel limit, as an uploaded template image must (an SVG named logo.png would
 * reach librsvg, and a 30000² PNG every render).
 */
async function checkPackAsset(name: string, file: string): Promise<void> {
  try {
    await checkTemplateAsset(fs.readFileSync(file), name);
  } catch (error) {
    throw packInvalid(isAppError(error) ? error.message : String(error));
  }
}

/** Removes staging folders a crashed import left behind (call at startup). */
export function removeStaleStaging(rootDir: string): void {
  if (!fs.existsSync(rootDir)) return;
  for (const name of fs.readdirSync(rootDir)) {
    if (name.startsWith(STAGING_PREFIX)) {
      fs.rmSync(path.join(rootDir, name), { recursive: true, force: true });
    }
  }
}

async function readRequired(zip: PackZip, name: string, maxBytes: number): Promise<Buffer> {
  if (!zip.files.has(name)) {
    throw packInvalid(
      name === PACK_MANIFEST
        ? 'it has no pack.json, so it was not exported by Render Desk.'
        : `it has no ${name}.`,
    );
  }
  return zip.read(name, maxBytes);
}

function parseJson(bytes: Buffer, name: string): unknown {
  const text = bytes.toString('utf8');
  const shape = jsonShape(text);
  if (shape.depth > MAX_JSON_DEPTH)
    throw packInvalid(`${name} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);
  if (shape.mostKeys > MAX_JSON_OBJECT_KEYS)
    throw packInvalid(
      `an object in ${name} has more than ${MAX_JSON_OBJECT_KEYS.toLocaleString('en')} keys.`,
    );
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw packInvalid(`${name} is not valid JSON (${(error as Error).message}).`);
  }
}

function parseManifest(bytes: Buffer): PackManifest {
  const json = parseJson(bytes, PACK_MANIFEST);
  const format =
    typeof json === 'object' && json !== null && 'packFormat' in json
      ? (json as { packFormat: unknown }).packFormat
      : undefined;
  if (typeof format === 'number' && format !== PACK_FORMAT) {
    throw new AppError(
      'pack-unsupported-version',
      `The pack has format ${format}; this version of Render Desk reads format ${PACK_FORMAT}. ` +
        'Update Render Desk, then import the pack again.',
    );
  }
  const parsed = PackManifest.safeParse(json);
  if (!parsed.success) {
    const problems = zodProblems(parsed.error, 'pack.json');
    throw packInvalid(
      `pack.json does not describe a pack (${problems
        .slice(0, 3)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}).`,
      problems,
    );
  }
  return parsed.data;
}

/** Every listed file is in the zip once, and the zip holds nothing else. */
function checkListing(zip: PackZip, manifest: PackManifest): void {
  const listed = [...manifest.assets, ...manifest.fonts].map((file) => file.path);
  const seen = new Set<string>();
  for (const name of listed) {
    if (seen.has(name.toLowerCase())) throw packInvalid(`pack.json lists "${name}" twice.`);
    seen.add(name.toLowerCase());
    if (!zip.files.has(name)) {
      throw packInvalid(`pack.json lists "${name}", but the zip does not contain it.`);
    }
  }
  const known = new Set([...listed, PACK_MANIFEST, PACK_TEMPLATE, PACK_LICENCES]);
  for (const name of zip.files.keys()) {
    if (!known.has(name)) {
      throw packInvalid(`the zip holds "${name}", which pack.json does not list.`);
    }
  }
}

function verify(
  name: string,
  actual: { sha256: string; size: number },
  expected: { sha256: string; size: number },
): void {
  if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
    throw packInvalid(
      `${name} does not match the sha256 and size pack.json gives for it (damaged or edited).`,
    );
  }
}

/** The template document, valid against its staged assets; owner checks wait for the fonts. */
function checkTemplate(bytes: Buffer, workspace: WorkspaceTemplates, assetsDir: string): Template {
  const json = parseJson(bytes, PACK_TEMPLATE);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw packInvalid('template.json is not a template document.');
  }
  const schemaVersion = (json as { schemaVersion?: unknown }).schemaVersion;
  if (typeof schemaVersion === 'number' && schemaVersion > TEMPLATE_SCHEMA_VERSION) {
    throw new AppError(
      'pack-unsupported-version',
      `The template in this pack uses template format ${schemaVersion}; this version of Render Desk reads format ${TEMPLATE_SCHEMA_VERSION}. ` +
        'Update Render Desk, then import the pack again.',
    );
  }
  return rewrapValidation(() =>
    workspace.validate({ ...json, id: PROBE_ID }, { assetsDir, ownerChecks: false }),
  );
}

function checkFontConflicts(manifest: PackManifest, fonts: PackFonts): void {
  for (const font of manifest.fonts) {
    const installed = fonts.find(font.family, font.weight, font.style);
    if (installed && installed.sha256 !== font.sha256) {
      throw new AppError(
        'conflict',
        `The pack's font "${font.family}" ${font.weight} ${font.style} differs from the font ` +
          'of the same name already installed, so the template would render differently. ' +
          'Rename or remove the installed font, then import the pack again.',
        {
          extensions: {
            font: { family: font.family, weight: font.weight, style: font.style },
          },
        },
      );
    }
  }
}

/** A template that fails validation is the pack's fault: pack-invalid, with every path. */
function rewrapValidation<T>(run: () => Promise<T>): Promise<T>;
function rewrapValidation<T>(run: () => T): T;
function rewrapValidation<T>(run: () => T | Promise<T>): T | Promise<T> {
  const rewrap = (error: unknown): never => {
    if (isAppError(error) && error.code === 'validation-failed') {
      throw packInvalid(`template.json is not a valid template. ${error.message}`, error.problems);
    }
    throw error;
  };
  try {
    const result = run();
    return result instanceof Promise ? result.catch(rewrap) : result;
  } catch (error) {
    return rewrap(error);
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
