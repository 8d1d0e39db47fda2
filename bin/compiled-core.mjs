// The core compiled to JavaScript for the `render-desk` bin, so that a command does not pay for a
// TypeScript loader (tsx compiles off-thread and hands every module across; that was most of a
// cached batch's start). Built on first use and again whenever a source file changed, into
// dist/cli/<build>/ beside the sources' own layout (main/…, shared/…, templates linked), because
// the core finds its templates, fonts and worker scripts relative to its modules.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleRenderWorker } from './render-worker-bundle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI_DIR = path.join(ROOT, 'dist', 'cli');
const CURRENT = path.join(CLI_DIR, 'current.json');
/**
 * A build that is no longer current is removed once no running command uses it (each marks its
 * build, see useBuild) and it is this old: a command that has just read current.json has marked
 * its build long before.
 */
const KEEP_OLD_BUILDS_MS = 10 * 60 * 1000;
/**
 * What current.json records. Builds recorded before this file listed itself among the sources
 * (and before zod was bundled, the UI was linked in, and the render worker bundled) are not
 * current, whatever their sources say.
 */
const BUILD_FORMAT = 4;

/** Every file the compiled copy is made from, with what identifies its version. */
function sourceFiles() {
  // This file and the worker's bundler too (they decide how the build is made), and zod's
  // version: the build carries a bundled copy of it (bundleZod).
  const files = [
    'package.json',
    path.join('bin', 'compiled-core.mjs'),
    path.join('bin', 'render-worker-bundle.mjs'),
    path.join('node_modules', 'zod', 'package.json'),
  ];
  for (const dir of ['main', 'shared']) {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true })) {
      const relative = path.join(dir, String(entry));
      if (relative.startsWith(path.join('main', 'shell'))) continue;
      if (fs.statSync(path.join(ROOT, relative)).isFile()) files.push(relative);
    }
  }
  return files.sort().map((file) => {
    const stat = fs.statSync(path.join(ROOT, file));
    return [file, stat.size, stat.mtimeMs];
  });
}

/** True while no listed file changed size or time, nor went away. */
function unchanged(sources) {
  for (const [file, size, mtimeMs] of sources) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat || stat.size !== size || stat.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/**
 * The current build's folder (dist/cli/<build>), or null when a source changed since it was made.
 * Its main/serve.js runs the headless server as main/serve.ts does, without a TypeScript loader.
 */
export function currentBuildDir() {
  const entry = currentBuild();
  return entry ? buildDirOf(entry) : null;
}

/** A build's folder (dist/cli/<build>), from its entry module (…/main/cli/render-desk.js). */
export function buildDirOf(entry) {
  return path.resolve(entry, '..', '..', '..');
}

/** The current build's entry module, or null when a source changed since it was made. */
export function currentBuild() {
  let current;
  try {
    current = JSON.parse(fs.readFileSync(CURRENT, 'utf8'));
  } catch {
    return null;
  }
  const entry = path.join(CLI_DIR, current.build, 'main', 'cli', 'render-desk.js');
  if (current.format !== BUILD_FORMAT) return null;
  return unchanged(current.sources) && fs.existsSync(entry) ? entry : null;
}

/**
 * Compiles main/ and shared/ file by file (not bundled: worker threads and templates are found
 * beside the modules) and makes the result current. Returns its entry module.
 */
export async function buildCompiledCore() {
  const esbuild = await import('esbuild');
  const sources = sourceFiles();
  const stamp = crypto.createHash('sha256').update(JSON.stringify(sources)).digest('hex');
  const build = stamp.slice(0, 16);
  const finalDir = path.join(CLI_DIR, build);
  if (!fs.existsSync(finalDir)) {
    fs.mkdirSync(CLI_DIR, { recursive: true });
    const temp = fs.mkdtempSync(path.join(CLI_DIR, `.${build}-`));
    try {
      await compileInto(esbuild, sources, temp);
      try {
        fs.renameSync(temp, finalDir);
      } catch (error) {
        // Another process made the same build meanwhile: theirs is as good.
        if (!fs.existsSync(finalDir)) throw error;
        fs.rmSync(temp, { recursive: true, force: true });
      }
    } catch (error) {
      fs.rmSync(temp, { recursive: true, force: true });
      throw error;
    }
  }
  const next = `${CURRENT}.${process.pid}.tmp`;
  fs.writeFileSync(next, JSON.stringify({ format: BUILD_FORMAT, build, sources }));
  fs.renameSync(next, CURRENT);
  removeOldBuilds(build);
  return path.join(finalDir, 'main', 'cli', 'render-desk.js');
}

async function compileInto(esbuild, sources, dir) {
  const files = sources
    .map(([file]) => file)
    .filter((file) => file.startsWith(`main${path.sep}`) || file.startsWith(`shared${path.sep}`));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: files.filter((file) => file.endsWith('.ts')),
    outdir: dir,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'silent',
  });
  for (const file of files.filter((name) => name.endsWith('.mjs'))) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  await bundleZod(esbuild, files, dir);
  // In the sources the render worker's entry registers tsx first; here the worker is JavaScript,
  // its modules bundled into one file that each render thread loads at its start.
  await bundleRenderWorker(esbuild, dir, 'node20');
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: manifest.name, version: manifest.version, type: 'module' }),
  );
  // A junction on Windows needs no privilege; elsewhere the type is ignored. The renderer folder
  // is linked so that a server run from this copy serves the built UI (renderer/dist).
  fs.symlinkSync(path.join('..', '..', '..', 'templates'), path.join(dir, 'templates'), 'junction');
  fs.symlinkSync(path.join('..', '..', '..', 'renderer'), path.join(dir, 'renderer'), 'junction');
  // Cache keys cover the engine's code: the compiled copy is keyed by the sources it came from,
  // so a run through it and one through the TypeScript entry share their cache entries.
  const { engineSourcesFile, folderHash } = await import(
    pathToFileURL(path.join(dir, 'main', 'cli', 'render-fingerprint.js')).href
  );
  fs.writeFileSync(engineSourcesFile, folderHash(path.join(ROOT, 'main', 'engine')));
  // The built-in templates checked once here, not again at each start of this copy (a file
  // changed since is checked as usual: the records are keyed by each file's digest).
  const { writeCheckedCatalog } = await import(
    pathToFileURL(path.join(dir, 'main', 'catalog', 'load-catalog.js')).href
  );
  const { CHECKED_TEMPLATES_FILE } = await import(
    pathToFileURL(path.join(dir, 'main', 'core', 'install-paths.js')).href
  );
  writeCheckedCatalog(path.join(ROOT, 'templates', 'catalog'), CHECKED_TEMPLATES_FILE);
}

/**
 * zod is ~95 small modules: loaded one by one they were a quarter of a cached batch's module
 * loading, on the main thread and again on each render thread. One bundled copy of its public
 * entry loads in half the time; the compiled files import that copy instead of the package.
 */
async function bundleZod(esbuild, files, dir) {
  const bundled = path.join(dir, 'vendor', 'zod.js');
  await esbuild.build({
    absWorkingDir: ROOT,
    stdin: { contents: "export * from 'zod';", resolveDir: ROOT, loader: 'js' },
    outfile: bundled,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  for (const file of files.filter((name) => name.endsWith('.ts'))) {
    const compiled = path.join(dir, file.replace(/\.ts$/, '.js'));
    const text = fs.readFileSync(compiled, 'utf8');
    if (!text.includes('from "zod"')) continue;
    const relative = path.relative(path.dirname(compiled), bundled).split(path.sep).join('/');
    fs.writeFileSync(compiled, text.replaceAll('from "zod"', `from ${JSON.stringify(relative)}`));
  }
}

/**
 * Marks the build of `entry` as used by this process until it exits: a command loads modules and
 * starts worker threads from it for as long as it runs, so it must outlive a newer build.
 * Returns false when the build went away before it could be marked.
 */
export function useBuild(entry) {
  const users = path.join(path.resolve(entry, '..', '..', '..'), '.users');
  const marker = path.join(users, String(process.pid));
  try {
    fs.mkdirSync(users, { recursive: true });
    fs.writeFileSync(marker, '');
  } catch {
    return false;
  }
  process.once('exit', () => fs.rmSync(marker, { force: true }));
  return fs.existsSync(entry);
}

function inUse(dir) {
  let pids;
  try {
    pids = fs.readdirSync(path.join(dir, '.users'));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (error) {
      // EPERM: alive, under another user.
      return error.code === 'EPERM';
    }
  });
}

function removeOldBuilds(keep) {
  for (const name of fs.readdirSync(CLI_DIR)) {
    if (name === keep || name === 'current.json') continue;
    const dir = path.join(CLI_DIR, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > KEEP_OLD_BUILDS_MS && !inUse(dir))
        fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

// `npm run build:cli`: build now, e.g. in an image or a CI step, rather than on the first command.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entry = currentBuild() ?? (await buildCompiledCore());
  console.log(
    `render-desk compiled: ${path.relative(ROOT, path.resolve(entry, '..', '..', '..'))}`,
  );
}
