import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './image-fixtures.js';

/**
 * The core compiled to JavaScript once per run (bin/compiled-core.mjs, built by the suites'
 * global setup): processes the tests spawn (serve, cluster nodes, browser-test cores) run it,
 * as the container image runs its compiled copy, instead of transpiling the TypeScript at every
 * start (~1.2 s of CPU each).
 */
export function compiledServeEntry(): string {
  const currentFile = path.join(REPO_ROOT, 'dist', 'cli', 'current.json');
  let build: string;
  try {
    build = (JSON.parse(fs.readFileSync(currentFile, 'utf8')) as { build: string }).build;
  } catch {
    throw new Error(
      `The compiled core is missing (${currentFile}): the test run's global setup builds it; run the tests through vitest's configs or \`npm run build:cli\`.`,
    );
  }
  const entry = path.join(REPO_ROOT, 'dist', 'cli', build, 'main', 'serve.js');
  if (!fs.existsSync(entry)) throw new Error(`The compiled core has no ${entry}.`);
  return entry;
}
