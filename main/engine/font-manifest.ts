import { readFileSync } from 'node:fs';
import path from 'node:path';

/** templates/fonts/fonts.json: the bundled families and their files (written by fonts:sync). */
export interface FontManifest {
  families: FontManifestFamily[];
}

export interface FontManifestFamily {
  family: string;
  folder: string;
  source: string;
  licence: string;
  /** Code points the family draws (union of its files), as [first, last] ranges. */
  coverage?: [number, number][];
  files: FontManifestFile[];
}

export interface FontManifestFile {
  file: string;
  weight: number;
  style: 'normal' | 'italic';
  /** The file's content hash: what a render cache keys the bundled fonts by. */
  sha256: string;
}

// Folder and file names are joined into paths: nothing that could leave the fonts folder.
const FOLDER = /^[a-z0-9-]+$/;
const FILE = /^[A-Za-z0-9_.-]+\.(ttf|otf|woff2)$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Reads and checks the manifest. Checked by hand, not with the schema library: every render
 * thread reads it at its start, and the threads load nothing they do not draw with.
 */
export function readFontManifest(fontsDir: string): FontManifest {
  const file = path.join(fontsDir, 'fonts.json');
  const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const problem = manifestProblem(manifest);
  if (problem) throw new Error(`${file} is not a font manifest: ${problem}`);
  return manifest as FontManifest;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown) => Number.isInteger(value);

/** What is wrong with a parsed fonts.json, or null when it is a manifest. */
function manifestProblem(manifest: unknown): string | null {
  if (!isObject(manifest) || !Array.isArray(manifest.families)) return 'families: not a list';
  for (const [i, family] of manifest.families.entries()) {
    const at = `families[${i}]`;
    if (!isObject(family)) return `${at}: not an object`;
    if (typeof family.family !== 'string' || family.family === '') return `${at}.family: empty`;
    if (typeof family.folder !== 'string' || !FOLDER.test(family.folder))
      return `${at}.folder: not a folder name`;
    if (typeof family.source !== 'string') return `${at}.source: not text`;
    if (typeof family.licence !== 'string') return `${at}.licence: not text`;
    if (
      family.coverage !== undefined &&
      !(
        Array.isArray(family.coverage) &&
        family.coverage.every(
          (range) =>
            Array.isArray(range) &&
            range.length === 2 &&
            isInteger(range[0]) &&
            isInteger(range[1]),
        )
      )
    )
      return `${at}.coverage: not a list of [first, last] code points`;
    if (!Array.isArray(family.files)) return `${at}.files: not a list`;
    for (const [j, entry] of family.files.entries()) {
      const fileAt = `${at}.files[${j}]`;
      if (!isObject(entry)) return `${fileAt}: not an object`;
      if (typeof entry.file !== 'string' || !FILE.test(entry.file))
        return `${fileAt}.file: not a font file name`;
      if (!isInteger(entry.weight)) return `${fileAt}.weight: not a whole number`;
      if (entry.style !== 'normal' && entry.style !== 'italic')
        return `${fileAt}.style: not normal or italic`;
      if (typeof entry.sha256 !== 'string' || !SHA256.test(entry.sha256))
        return `${fileAt}.sha256: not a SHA-256 digest`;
    }
  }
  return null;
}
