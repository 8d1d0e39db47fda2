import { z } from 'zod';
import { FontFormat } from '../../shared/font-schemas.js';
import { isSafeAssetName } from '../workspace/workspace-templates.js';

/**
 * A template pack is a zip that carries one workspace template to another machine:
 *
 *   pack.json       the manifest below: what the pack holds, with the sha256 of every file
 *   template.json   the template document (its current version)
 *   assets/<name>   the template's asset files, as layers name them (`{ "asset": "<name>" }`)
 *   fonts/<name>    the custom fonts its text and list layers use
 *   LICENCES.md     the licence texts and origin notes of the fonts and assets, for people
 *
 * Nothing else may be in the zip. `packFormat` changes only when an older reader could not
 * import the pack correctly; such packs are refused as `pack-unsupported-version`.
 */
export const PACK_FORMAT = 1;

export const PACK_MANIFEST = 'pack.json';
export const PACK_TEMPLATE = 'template.json';
export const PACK_LICENCES = 'LICENCES.md';
export const ASSETS_PREFIX = 'assets/';
export const FONTS_PREFIX = 'fonts/';

/** The manifest and template are small documents; anything larger is not ours. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
export const TEMPLATE_MAX_BYTES = 4 * 1024 * 1024;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex sha256');
const FONT_FILE = /^fonts\/[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.(ttf|otf|woff2?)$/;

export const PackAsset = z.object({
  /** The entry name in the zip: `assets/<name>`; layers refer to `<name>`. */
  path: z
    .string()
    .refine(
      (name) => name.startsWith(ASSETS_PREFIX) && isSafeAssetName(name.slice(ASSETS_PREFIX.length)),
      'must be assets/<name> with letters, digits, ".", "_" or "-" in each part',
    ),
  sha256: Sha256,
  size: z.number().int().nonnegative(),
});
export type PackAsset = z.infer<typeof PackAsset>;

export const PackFont = z.object({
  /** The entry name in the zip: `fonts/<name>.<ttf|otf|woff|woff2>`. */
  path: z.string().regex(FONT_FILE, 'must be fonts/<name>.ttf, .otf, .woff or .woff2'),
  family: z.string().min(1).max(200),
  weight: z.number().int().min(1).max(1000),
  style: z.enum(['normal', 'italic']),
  format: FontFormat,
  sha256: Sha256,
  size: z.number().int().nonnegative(),
  /** The licence text or name found in the font, if any. */
  licence: z.string().max(100_000).nullable(),
});
export type PackFont = z.infer<typeof PackFont>;

/** A licence or origin note and the pack files it covers (also written out in LICENCES.md). */
export const PackLicence = z.object({
  appliesTo: z.array(z.string().max(300)).max(2000),
  text: z.string().max(100_000),
});
export type PackLicence = z.infer<typeof PackLicence>;

export const PackManifest = z.object({
  packFormat: z.literal(PACK_FORMAT),
  createdAt: z.string().max(40),
  /** `Render Desk <version>`: which app wrote the pack, for support questions. */
  generator: z.string().max(200),
  template: z.object({
    /** The id on the machine that exported it; an import always gets a new `wtpl_` id. */
    id: z.string().max(100),
    name: z.string().max(200),
    forkedFrom: z.string().max(100).nullable(),
    version: z.number().int().positive(),
    sha256: Sha256,
  }),
  assets: z.array(PackAsset).max(2000),
  fonts: z.array(PackFont).max(200),
  licences: z.array(PackLicence).max(2000),
});
export type PackManifest = z.infer<typeof PackManifest>;

/** LICENCES.md: every note with the files it covers, for a person opening the zip. */
export function licencesMarkdown(licences: readonly PackLicence[]): string {
  const sections = licences.map(
    (licence) => `## ${licence.appliesTo.join(', ')}\n\n${licence.text.trim()}\n`,
  );
  return `# Licences and origins of the files in this pack\n\n${sections.join('\n') || 'No notes.\n'}`;
}
