import { GlobalFonts, type FontKey } from '@napi-rs/canvas';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  coversCodePoint,
  mergeRanges,
  readCoverage,
  type CoverageRanges,
} from './font-coverage.js';
import { DEFAULT_FAMILY, EMOJI_FAMILY, SCRIPT_FAMILIES } from './font-families.js';
import { readFontManifest, type FontManifest } from './font-manifest.js';
import type { CustomFontFace } from '../render/render-protocol.js';

/**
 * Bundled fonts (templates/fonts). They are registered once per thread; text is always drawn with
 * a stack ending in the default text family and the colour emoji family, so a glyph the chosen
 * family lacks (₫ in a display face, 🎉 anywhere) still comes from a bundled font.
 *
 * The render threads may defer the colour emoji family until a job's text can reach it
 * (`registerFontsFor`): registering its 5.6 MB file takes longer than all the other families
 * together (0.2–0.4 s), which a one-off command-line render or a cached batch that re-renders
 * three rows pays in full, and most images draw no emoji.
 */

interface RegisteredFamily {
  family: string;
  files: string[];
  coverage: CoverageRanges | null;
  /** False while a deferred family's files are not yet registered with the canvas. */
  registered: boolean;
}

interface FontRegistry {
  fontsDir: string;
  families: Map<string, RegisteredFamily>;
}

let registry: FontRegistry | null = null;

/**
 * Fonts the user uploaded, as this thread registered them: by file, with the key that removes
 * them again when the font is deleted. Families are looked up like bundled ones.
 */
const customFaces = new Map<string, { family: string; key: FontKey }>();
let customFamilies = new Map<string, RegisteredFamily>();
const customCoverage = new Map<string, CoverageRanges>();

/** Families a render thread registers only when a job needs them (see the note above). */
const DEFERRABLE_FAMILIES = new Set([EMOJI_FAMILY.toLowerCase()]);

/**
 * Registers every family of templates/fonts/fonts.json; later calls with the same folder no-op.
 * With `deferEmoji`, the colour emoji family is known (resolved, listed, its coverage used) but
 * registered only by `registerFontsFor` a job whose text can reach it; a later call without it
 * registers it at once.
 */
export function registerBundledFonts(
  fontsDir: string,
  options: { deferEmoji?: boolean } = {},
): string[] {
  const dir = path.resolve(fontsDir);
  if (registry?.fontsDir === dir) {
    if (!options.deferEmoji) registerDeferred(registry);
    return [...registry.families.values()].map((f) => f.family);
  }
  const manifest: FontManifest = readFontManifest(dir);
  const families = new Map<string, RegisteredFamily>();
  for (const entry of manifest.families) {
    const lower = entry.family.toLowerCase();
    const family: RegisteredFamily = {
      family: entry.family,
      files: entry.files.map((f) => path.join(dir, entry.folder, f.file)),
      coverage: entry.coverage ?? null,
      registered: false,
    };
    if (!(options.deferEmoji && DEFERRABLE_FAMILIES.has(lower))) registerFamily(family);
    families.set(lower, family);
  }
  registry = { fontsDir: dir, families };
  return manifest.families.map((f) => f.family);
}

function registerFamily(entry: RegisteredFamily): void {
  for (const file of entry.files) {
    const key = GlobalFonts.registerFromPath(file, entry.family);
    if (!key) throw new Error(`Could not register the bundled font ${file}`);
  }
  entry.registered = true;
}

function registerDeferred(current: FontRegistry): void {
  for (const entry of current.families.values()) if (!entry.registered) registerFamily(entry);
}

/**
 * Registers the deferred families before a job is drawn if any of its text could be drawn with
 * them, so the image is the same as with every family registered from the start. The emoji
 * family comes last in every stack, after the default family: a character reaches it only if the
 * default family lacks it and the emoji font has it (or the job names the family itself). Every
 * string of the job is looked at (values, the template's text and formats); templates once each.
 */
export function registerFontsFor(job: { template?: unknown }): void {
  if (!needsDeferredFonts(job)) return;
  for (const entry of pendingFamilies()) registerFamily(entry);
}

/** True when a deferred family is not registered yet and the job's text can reach it. */
export function needsDeferredFonts(job: { template?: unknown }): boolean {
  const pending = pendingFamilies();
  if (pending.length === 0) return false;
  const reachable = (text: string) => pending.some((entry) => reachesFamily(text, entry));
  return (
    anyString(job, reachable, job.template) ||
    (job.template !== null &&
      typeof job.template === 'object' &&
      templateReaches(job.template, reachable))
  );
}

/** The bundled families this thread knows but has not registered yet. */
export function deferredFamilies(): string[] {
  return pendingFamilies().map((entry) => entry.family);
}

function pendingFamilies(): RegisteredFamily[] {
  return registry ? [...registry.families.values()].filter((entry) => !entry.registered) : [];
}

const templatesReaching = new WeakMap<object, boolean>();

function templateReaches(template: object, reachable: (text: string) => boolean): boolean {
  let known = templatesReaching.get(template);
  if (known === undefined) {
    known = anyString(template, reachable, undefined);
    templatesReaching.set(template, known);
  }
  return known;
}

/** True if `test` holds for a string anywhere in `value` (keys included), skipping `skip`. */
function anyString(value: unknown, test: (text: string) => boolean, skip: unknown): boolean {
  if (typeof value === 'string') return test(value);
  if (value === null || typeof value !== 'object' || value === skip) return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  if (Array.isArray(value)) return value.some((item) => anyString(item, test, skip));
  for (const [key, item] of Object.entries(value)) {
    if (test(key) || anyString(item, test, skip)) return true;
  }
  return false;
}

function reachesFamily(text: string, entry: RegisteredFamily): boolean {
  if (text.toLowerCase().includes(entry.family.toLowerCase())) return true;
  const own = coverageOf(entry.family);
  const before = coverageOf(DEFAULT_FAMILY);
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    // Every ASCII character the emoji font has (digits, #, *, space) the default family has too.
    if (cp < 0x80) continue;
    if (coversCodePoint(own, cp) && !coversCodePoint(before, cp)) return true;
  }
  return false;
}

function requireRegistry(): FontRegistry {
  if (!registry) throw new Error('registerBundledFonts() must run before drawing text');
  return registry;
}

/**
 * Makes this thread's custom fonts exactly `faces` (every job carries the full list): new files
 * are registered under their family, deleted ones removed, so a face replaced by another file
 * never lingers in one worker and not in another. A file that cannot be registered is left out
 * and tried again with the next job; its text falls back to the default family meanwhile.
 */
export function syncCustomFonts(faces: readonly CustomFontFace[]): void {
  const wanted = new Map(faces.map((face) => [path.resolve(face.path), face]));
  let changed = false;
  for (const [file, registered] of customFaces) {
    const face = wanted.get(file);
    if (face && face.family === registered.family) continue;
    GlobalFonts.remove(registered.key);
    customFaces.delete(file);
    customCoverage.delete(file);
    changed = true;
  }
  for (const [file, face] of wanted) {
    if (customFaces.has(file)) continue;
    const key = GlobalFonts.registerFromPath(file, face.family);
    if (!key) continue;
    customFaces.set(file, { family: face.family, key });
    changed = true;
  }
  if (!changed) return;
  const families = new Map<string, RegisteredFamily>();
  for (const [file, { family }] of customFaces) {
    const lower = family.toLowerCase();
    const entry = families.get(lower) ?? { family, files: [], coverage: null, registered: true };
    entry.files.push(file);
    families.set(lower, entry);
  }
  customFamilies = families;
}

/**
 * The bundled or custom family of that name (case-insensitive), or the default family if there
 * is none.
 */
export function resolveFamily(family: string | null | undefined): string {
  const key = family?.trim().toLowerCase();
  const found = key ? (requireRegistry().families.get(key) ?? customFamilies.get(key)) : undefined;
  return found?.family ?? DEFAULT_FAMILY;
}

export function isBundledFamily(family: string): boolean {
  return requireRegistry().families.has(family.trim().toLowerCase());
}

/** A family the user uploaded and this thread registered. */
export function isCustomFamily(family: string): boolean {
  return customFamilies.has(family.trim().toLowerCase());
}

/** The font files of the family a name resolves to (bundled or custom), regular face first. */
export function familyFiles(family: string): readonly string[] {
  const key = resolveFamily(family).toLowerCase();
  return (requireRegistry().families.get(key) ?? customFamilies.get(key))?.files ?? [];
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
  const custom = customFamilies.get(family.toLowerCase());
  if (custom) {
    custom.coverage ??= mergeRanges(
      custom.files.flatMap((file) => {
        let ranges = customCoverage.get(file);
        if (!ranges) {
          ranges = readCoverage(readFileSync(file));
          customCoverage.set(file, ranges);
        }
        return ranges.map((r): [number, number] => [r[0], r[1]]);
      }),
    );
    return custom.coverage;
  }
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
  const stack = [
    resolveFamily(family),
    DEFAULT_FAMILY,
    EMOJI_FAMILY,
    ...SCRIPT_FAMILIES.filter(isBundledFamily),
  ];
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
