import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled core's folder for this run (tests/global-setup.ts builds it and marks it used). */
    compiledCoreDir: string;
  }
}

/**
 * The core compiled to JavaScript once per run (bin/compiled-core.mjs, built by the suites'
 * global setup): processes the tests spawn (serve, cluster nodes, browser-test cores) run it,
 * as the container image runs its compiled copy, instead of transpiling the TypeScript at every
 * start (~1.2 s of CPU each).
 */
export function compiledServeEntry(): string {
  return compiledFile(path.join('main', 'serve.js'));
}

/** A file of that copy, by its path relative to the copy's folder (`main/serve.js`). */
export function compiledFile(relative: string): string {
  const file = path.join(compiledCoreDir(), relative);
  if (!fs.existsSync(file)) throw new Error(`The compiled core has no ${file}.`);
  return file;
}

/**
 * The copy's folder as a file URL ending in `/`: a fixture run as plain JavaScript (no TypeScript
 * loader to transpile the core at its start) is handed it and imports the core's modules from
 * it, `new URL('main/store/create-store.js', core)`.
 */
export function compiledCoreUrl(): string {
  return pathToFileURL(compiledCoreDir() + path.sep).href;
}

/** The copy's folder, laid out as the repository (main/…, shared/…, templates linked). */
export function compiledCoreDir(): string {
  const dir = inject('compiledCoreDir');
  if (!dir)
    throw new Error(
      "The compiled core is not set up: run the tests through the project's vitest configs (their global setup builds it).",
    );
  if (!fs.existsSync(dir)) throw new Error(`The compiled core has no folder ${dir}.`);
  return dir;
}
