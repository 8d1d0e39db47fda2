import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Openly licensed test corpora, copied into the repository with their licences (SOURCES.md). */
export const CORPORA_DIR = path.resolve(REPO_ROOT, 'tests', 'fixtures', 'corpora');
export const PNG_SUITE_DIR = path.join(CORPORA_DIR, 'pngsuite');

export function dataUri(mime: string, bytes: Buffer | string): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

export function corpusPng(name: string): Buffer {
  return fs.readFileSync(path.join(PNG_SUITE_DIR, name));
}
