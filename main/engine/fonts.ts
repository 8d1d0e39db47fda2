import { GlobalFonts } from '@napi-rs/canvas';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  coversCodePoint,
  mergeRanges,
  readCoverage,
  type CoverageRanges,
} from './font-coverage.js';
import { readFontManifest, type FontManifest } from './font-manifest.js';

/**
 * Bundled fonts (templates/fonts). They are registered once per thread; text is always drawn with
 * a stack ending in the default text family and the colour emoji family, so a glyph the chosen
 * family lacks (₫ in a display face, 🎉 anywhere) still comes from a bundled font.
 */

export const EMOJI_FAMILY = 'Noto Color Emoji';
export const DEFAULT_FAMILY = 'Be Vietnam Pro';

interface RegisteredFamily {
  family: string;
  files: string[];
  coverage: CoverageRanges | null;
}

interface FontRegistry {
  fontsDir: string;
  families: Map<string, RegisteredFamily>;
}

let registry: FontRegistry | null = null;

/** Registers every family of templates/fonts/fonts.json; later calls with the same folder no-op. */
export function registerBundledFonts(fontsDir: string): string[] {
  const dir = path.resolve(fontsDir);
  if (registry?.fontsDir === dir) return [...registry.families.values()].map((f) => f.family);
  const manifest: FontManifest = readFontManifest(dir);
  const families = new Map<string, RegisteredFamily>();
  for (const entry of manifest.families) {
    const files = entry.files.map((f) => path.join(dir, entry.folder, f.file));
    for (const file of files) {
      const key = GlobalFonts.registerFromPath(file, entry.family);
      if (!key) throw new Error(`Could not register the bundled font ${file}`);
    }
    families.set(entry.family.toLowerCase(), {
      family: entry.family,
      files,
      coverage: entry.coverage ?? null,
    });
  }
  registry = { fontsDir: dir, families };
  return manifest.families.map((f) => f.family);
}

function requireRegistry(): FontRegistry {
  if (!registry) throw new Error('registerBundledFonts() must run before drawing text');
  return registry;
}

/** The bundled family of that name (case-insensitive), or the default family if not bundled. */
export function resolveFamily(family: string | null | undefined): string {
  const found = family ? requireRegistry().families.get(family.trim().toLowerCase()) : undefined;
  return found?.family ?? DEFAULT_FAMILY;
}

export function isBundledFamily(family: string): boolean {
  return requireRegistry().families.has(family.trim().toLowerCase());
}

/** CSS font-family list: the family, then the default text family, then colour emoji. */
export function fontStack(family: string): string {
  const chosen = resolveFamily(family);
  const stack = [chosen, DEFAULT_FAMILY, EMOJI_FAMILY].filter((f, i, all) => all.indexOf(f) === i);
  return stack.map((f) => `"${f}"`).join(', ');
}

/** A CSS font shorthand for the canvas, e.g. `italic 700 48px "Montserrat", …`. */
export function fontShorthand(
  family: string,
  weight: number,
  style: 'normal' | 'italic',
  sizePx: number,
): string {
  return `${style === 'italic' ? 'italic ' : ''}${weight} ${sizePx}px ${fontStack(family)}`;
}

function coverageOf(family: string): CoverageRanges {
  const entry = requireRegistry().families.get(family.toLowerCase());
  if (!entry) return [];
  // fonts.json carries the coverage; without it, read lazily (the emoji subsets take ~0.3 s).
  entry.coverage ??= mergeRanges(
    entry.files.flatMap((file) =>
      readCoverage(readFileSync(file)).map((r): [number, number] => [r[0], r[1]]),
    ),
  );
  return entry.coverage;
}

/**
 * Characters of `text` that no font of the stack for `family` draws, each listed once. Format
 * and layout controls (ZWJ, variation selectors, tags, line breaks) draw nothing and are skipped.
 */
export function missingGlyphs(text: string, family: string): string[] {
  const stack = [resolveFamily(family), DEFAULT_FAMILY, EMOJI_FAMILY];
  const missing = new Set<string>();
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    if (isInvisible(cp) || missing.has(char)) continue;
    if (!stack.some((f) => coversCodePoint(coverageOf(f), cp))) missing.add(char);
  }
  return [...missing];
}

function isInvisible(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp < 0xa0) ||
    cp === 0x200b ||
    cp === 0x200c ||
    cp === 0x200d ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0xfeff ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}
