import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleRenderWorker } from '../bin/render-worker-bundle.mjs';

/**
 * `npm run build:shell`: compiles what Electron runs.
 *
 *   dist/shell/electron-main.cjs   the main process (one CommonJS file; only `electron` external)
 *   dist/shell/preload.cjs         the preload: sandboxed preloads can require nothing but
 *                                  `electron`, so it is one self-contained CommonJS file
 *   dist/shell/core-watchdog.mjs   loaded into the core (stops it when the shell goes away)
 *   dist/core/{main,shared}/…      the core compiled file by file (packaging only, see below)
 *
 * Options: --shell-only (no core), --if-electron (do nothing when the Electron binary is not
 * installed: `npm start` then runs the headless server and needs no shell), --out-dir DIR.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ELECTRON_TARGET = 'chrome140'; // Electron 38
const ELECTRON_NODE_TARGET = 'node22';
const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

export interface BuildOptions {
  outDir?: string;
  core?: boolean;
}

/** What a bundle requires at run time that it does not contain. */
function externalImports(metafile: esbuild.Metafile): string[] {
  const found = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) if (imported.external) found.add(imported.path);
  }
  return [...found].sort();
}

function assertExternals(
  what: string,
  metafile: esbuild.Metafile,
  allowed: (name: string) => boolean,
): void {
  const unexpected = externalImports(metafile).filter((name) => !allowed(name));
  if (unexpected.length)
    throw new Error(`${what} would require ${unexpected.join(', ')} at run time.`);
}

async function buildShell(outDir: string): Promise<void> {
  const shellDir = path.join(outDir, 'shell');
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    metafile: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    legalComments: 'none',
  } satisfies esbuild.BuildOptions;

  const mainProcess = await esbuild.build({
    ...common,
    entryPoints: ['main/shell/electron-main.ts'],
    outfile: path.join(shellDir, 'electron-main.cjs'),
    platform: 'node',
    format: 'cjs',
    target: ELECTRON_NODE_TARGET,
    external: ['electron'],
  });
  assertExternals(
    'The main process',
    mainProcess.metafile,
    (name) => name === 'electron' || NODE_BUILTINS.has(name),
  );

  // platform 'browser': a Node built-in in the preload fails the build instead of the window.
  const preload = await esbuild.build({
    ...common,
    entryPoints: ['preload/preload.ts'],
    outfile: path.join(shellDir, 'preload.cjs'),
    platform: 'browser',
    format: 'cjs',
    target: ELECTRON_TARGET,
    external: ['electron'],
  });
  assertExternals('The sandboxed preload', preload.metafile, (name) => name === 'electron');

  await esbuild.build({
    ...common,
    entryPoints: ['main/supervisor/core-watchdog.ts'],
    outfile: path.join(shellDir, 'core-watchdog.mjs'),
    platform: 'node',
    format: 'esm',
    target: ELECTRON_NODE_TARGET,
  });
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: false })
    .flatMap((entry) => {
      const relative = path.join(dir, String(entry));
      return fs.statSync(path.join(ROOT, relative)).isFile() ? [relative] : [];
    });
}

/**
 * The core for packaged builds, compiled file by file into the same tree (main/…, shared/…), not
 * bundled into one file: the core finds its worker scripts, the templates and the built UI
 * relative to its own modules (`import.meta.url`), and its worker threads need real files (a
 * worker thread cannot load from an asar archive either). Dependencies stay in node_modules,
 * where electron-builder rebuilds the native ones for Electron.
 */
async function buildCore(outDir: string): Promise<void> {
  const coreDir = path.join(outDir, 'core');
  fs.rmSync(coreDir, { recursive: true, force: true });
  const files = [...sourceFiles('main'), ...sourceFiles('shared')].filter(
    (file) =>
      !file.startsWith(path.join('main', 'shell')) &&
      !file.endsWith('tsconfig.json') &&
      file !== path.join('main', 'start.ts'),
  );
  for (const file of files) {
    const target = path.join(coreDir, file.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!file.endsWith('.ts')) {
      fs.copyFileSync(path.join(ROOT, file), target);
      continue;
    }
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const { code } = await esbuild.transform(source, {
      loader: 'ts',
      format: 'esm',
      platform: 'node',
      target: ELECTRON_NODE_TARGET,
      sourcefile: file,
    });
    fs.writeFileSync(target, code);
  }
  // In the sources the render pool's worker entry registers tsx before importing the TypeScript
  // worker; the compiled tree has a JavaScript worker, bundled into one file a thread loads at its
  // start, and needs no loader.
  const workerEntry = path.join(coreDir, 'main', 'render', 'render-worker-entry.mjs');
  if (
    !fs.existsSync(workerEntry) ||
    !fs.existsSync(path.join(coreDir, 'main', 'render', 'render-worker.js'))
  ) {
    throw new Error(
      'main/render/render-worker-entry.mjs or render-worker.ts moved: update the core build.',
    );
  }
  await bundleRenderWorker(esbuild, coreDir, ELECTRON_NODE_TARGET);
  // Any other reference to a sibling .ts file would break at run time: refuse to package it.
  for (const file of files.filter((name) => /\.(ts|mjs)$/.test(name))) {
    const compiled = fs.readFileSync(path.join(coreDir, file.replace(/\.ts$/, '.js')), 'utf8');
    if (/['"]\.{1,2}\/[^'"]+\.ts['"]/.test(compiled)) {
      throw new Error(
        `${file} refers to a .ts file at run time; the compiled core would not find it.`,
      );
    }
  }
}

export async function build(options: BuildOptions = {}): Promise<void> {
  const outDir = path.resolve(ROOT, options.outDir ?? 'dist');
  await buildShell(outDir);
  if (options.core !== false) await buildCore(outDir);
}

function electronInstalled(): boolean {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary);
  } catch {
    return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out-dir');
  if (args.includes('--if-electron') && !electronInstalled()) process.exit(0);
  const started = Date.now();
  build({
    core: !args.includes('--shell-only'),
    ...(outIndex >= 0 && args[outIndex + 1] ? { outDir: args[outIndex + 1] } : {}),
  }).then(
    () => console.log(`Desktop shell built in ${Date.now() - started} ms.`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
