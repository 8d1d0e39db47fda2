import path from 'node:path';
import { REPO_ROOT } from './install-paths.js';

/** A compiled copy of these sources that the core's threads start from, once one is named. */
let compiledCopy: string | undefined;

/**
 * Starts the core's worker threads (render threads, spreadsheet readers) from a compiled copy of
 * the same sources, laid out as the repository (main/…, shared/…). A process that runs the
 * TypeScript sources has each thread register a TypeScript loader first, about 0.6 s of CPU at
 * every start; the tests build such a copy once per run and name it here.
 */
export function startThreadsFrom(copyDir: string): void {
  compiledCopy = copyDir;
}

/**
 * The module a thread starts from: `file` itself, or its twin in the compiled copy (`.ts`
 * compiled to `.js`) once one is named and `file` is one of these sources.
 */
export function threadEntry(file: string): string {
  if (compiledCopy === undefined) return file;
  const relative = path.relative(REPO_ROOT, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return file;
  return path.join(compiledCopy, relative.replace(/\.ts$/, '.js'));
}
