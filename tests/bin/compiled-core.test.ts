import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { runCli, tempDir, writeCsv, type CliResult } from '../helpers/run-cli.js';

/** `render-desk …` from the TypeScript sources through tsx, as the bin ran before it compiled. */
function runSources(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'main', 'cli', 'render-desk.ts'), ...args],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The current compiled copy's folder (dist/cli/<build>), built if a source changed. */
async function compiledBuildDir(): Promise<string> {
  const { buildCompiledCore, currentBuild } = (await import(
    path.join(REPO_ROOT, 'bin', 'compiled-core.mjs')
  )) as { buildCompiledCore: () => Promise<string>; currentBuild: () => string | null };
  const entry = currentBuild() ?? (await buildCompiledCore());
  return path.resolve(entry, '..', '..', '..');
}

describe('the compiled core of the render-desk bin', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir('rd-compiled-core-')));
  afterEach(() => temp.remove());

  it('keys the cache as the TypeScript sources do and draws the same bytes', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    writeCsv(source, [0, 1].map(productRow));
    const args = (out: string, cache: string) => [
      'batch',
      '--template',
      REFERENCE,
      '--source',
      source,
      '--out',
      path.join(temp.dir, out),
      '--cache',
      path.join(temp.dir, cache),
      '--data-dir',
      path.join(temp.dir, 'data'),
      '--workers',
      '1',
    ];
    // One run from the sources (each transpiles the core at its start): the compiled bin finds
    // what it cached, so both key the rows alike, and draws the same bytes into a cache of its own.
    const fresh = await runSources(args('sources', 'cache'));
    expect(fresh.stdout).toMatch(/rendered 2, unchanged 0, failed 0/);

    const reused = await runCli(args('reused', 'cache'));
    expect(reused.code).toBe(0);
    expect(reused.stdout).toMatch(/rendered 0, unchanged 2, failed 0/);

    const compiled = await runCli(args('compiled', 'other-cache'));
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toMatch(/rendered 2, unchanged 0, failed 0/);
    for (const name of ['1.png', '2.png']) {
      const fromSources = fs.readFileSync(path.join(temp.dir, 'sources', name));
      expect(fs.readFileSync(path.join(temp.dir, 'compiled', name)).equals(fromSources)).toBe(true);
    }
  });

  it('loads one bundled copy of zod instead of the package’s ninety-odd modules', async () => {
    const build = await compiledBuildDir();
    expect(fs.statSync(path.join(build, 'vendor', 'zod.js')).size).toBeGreaterThan(100_000);
    const compiled = fs
      .readdirSync(build, { recursive: true })
      .map(String)
      .filter((file) => /^(main|shared)\/.*\.js$/.test(file));
    const importing = compiled.filter((file) =>
      fs.readFileSync(path.join(build, file), 'utf8').includes('vendor/zod.js'),
    );
    expect(importing).toContain('shared/template-format.js');
    const byName = compiled.filter((file) =>
      /from "zod"/.test(fs.readFileSync(path.join(build, file), 'utf8')),
    );
    expect(byName).toEqual([]);
  });

  it('gives the render threads one bundled file, each module in it still finding files beside its own', async () => {
    const build = await compiledBuildDir();
    const renderDir = path.join(build, 'main', 'render');
    expect(fs.readFileSync(path.join(renderDir, 'render-worker-entry.mjs'), 'utf8')).toContain(
      "from './render-worker.bundle.js'",
    );
    const bundle = fs.readFileSync(path.join(renderDir, 'render-worker.bundle.js'), 'utf8');
    // Each module's own URL is that of the file it was compiled to (fonts, code readers).
    const moduleUrls = [...bundle.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map(
      (match) => match[1]!,
    );
    expect(moduleUrls).toContain('../engine/render-job.js');
    for (const relative of moduleUrls)
      expect(fs.existsSync(path.resolve(renderDir, relative)), relative).toBe(true);
    // No other use of the bundle's own URL, which would point a module at the wrong folder.
    expect(bundle.replaceAll(/new URL\("[^"]+", import\.meta\.url\)/g, '')).not.toContain(
      'import.meta.url',
    );
  });

  it('carries every built-in template checked, so that its cores do not check them at start', async () => {
    const build = await compiledBuildDir();
    const records = JSON.parse(
      fs.readFileSync(path.join(build, 'checked-templates.json'), 'utf8'),
    ) as { templates: Record<string, { id: string }> };
    const catalog = path.join(REPO_ROOT, 'templates', 'catalog');
    const ids = fs
      .readdirSync(catalog)
      .filter((slug) => fs.existsSync(path.join(catalog, slug, 'template.json')))
      .map(
        (slug) =>
          (
            JSON.parse(fs.readFileSync(path.join(catalog, slug, 'template.json'), 'utf8')) as {
              id: string;
            }
          ).id,
      );
    expect(
      Object.values(records.templates)
        .map((t) => t.id)
        .sort(),
    ).toEqual(ids.sort());
  });
});
