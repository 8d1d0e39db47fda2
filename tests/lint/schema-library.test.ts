import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/image-fixtures.js';

/**
 * The packages a module graph loads, as Node would load them: esbuild follows the same imports
 * (the compiled core is made by it, with the same tsconfig, so `import { type X }` is kept as an
 * import and `import type` is not) and reports each package it leaves outside.
 */
async function packagesLoadedBy(entry: string): Promise<Map<string, string[]>> {
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    // Node loads every module imported, used or not.
    treeShaking: false,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const importers = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (!imported.external || imported.path.startsWith('node:')) continue;
      const name = imported.path.startsWith('@')
        ? imported.path.split('/').slice(0, 2).join('/')
        : imported.path.split('/')[0]!;
      importers.set(name, [...(importers.get(name) ?? []), file]);
    }
  }
  return importers;
}

/**
 * The modules the app's page loads before it draws its first screen that import the schema
 * library: the entry chunk of a build split at its dynamic imports, as the UI's build splits it.
 * Package annotations are ignored (zod says it has no side effects, and the UI's build still
 * keeps what a shared module imports for its own top-level schemas).
 */
async function appEntrySchemaModules(): Promise<string[]> {
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [path.join('renderer', 'main.tsx')],
    tsconfig: 'tsconfig.renderer.json',
    bundle: true,
    splitting: true,
    ignoreAnnotations: true,
    write: false,
    metafile: true,
    outdir: path.join(REPO_ROOT, 'dist', 'schema-library-check'),
    platform: 'browser',
    format: 'esm',
    loader: { '.ttf': 'file', '.woff2': 'file', '.png': 'file', '.svg': 'file', '.css': 'empty' },
    logLevel: 'silent',
  });
  const entry = Object.values(result.metafile.outputs).find((output) => output.entryPoint);
  if (!entry) throw new Error('The UI build has no entry chunk.');
  const modules = Object.keys(entry.inputs);
  expect(modules).toContain('renderer/main.tsx');
  return modules.filter(
    (file) =>
      file.includes('node_modules/zod/') ||
      result.metafile.inputs[file]!.imports.some((imported) =>
        imported.path.includes('node_modules/zod/'),
      ),
  );
}

describe('the render thread', () => {
  it('loads no schema library: it draws templates the main thread has already checked', async () => {
    // zod and the schemas built with it were a fifth of each thread's start (about 110 ms of CPU
    // out of 500), paid again by every thread of every batch, CLI command and cluster node.
    const packages = await packagesLoadedBy(path.join('main', 'render', 'render-worker.ts'));
    expect(packages.get('zod') ?? []).toEqual([]);
    // What it does load: it draws, encodes and reads codes back.
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['@napi-rs/canvas', 'sharp']));
  });
});

describe('the app', () => {
  it('loads no schema library before its first screen: every page load would build every schema', async () => {
    // zod and the API's schemas were about 40 % of the page's script and 80 ms of each start. The
    // one form that checks with the API's own rule (a webhook's address) loads it when used.
    expect(await appEntrySchemaModules()).toEqual([]);
  });
});
