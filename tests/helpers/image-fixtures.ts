import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The team's openly licensed test corpora live beside the repository. */
export const CORPORA_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'corpora');
export const PNG_SUITE_DIR = path.join(CORPORA_DIR, 'pngsuite');

export function dataUri(mime: string, bytes: Buffer | string): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

export function corpusPng(name: string): Buffer {
  return fs.readFileSync(path.join(PNG_SUITE_DIR, name));
}
