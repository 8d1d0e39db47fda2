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
