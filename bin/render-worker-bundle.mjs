// The render thread's own modules as one file, for the compiled core (compiled-core.mjs) and the
// packaged app's core (scripts/build-shell.ts). Every render thread of every batch, command and
// cluster node loads its modules at its start: from one file that took about a fifth less CPU
// than resolving, reading and compiling its hundred-odd modules one by one.
//
// Plain JavaScript: both builds import it before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Bundles `<coreDir>/main/render/render-worker.js` (already compiled) into
 * render-worker.bundle.js beside it, packages left in node_modules, and points the worker entry
 * at it. Returns the bundle's path.
 */
export async function bundleRenderWorker(esbuild, coreDir, target) {
  const renderDir = path.join(coreDir, 'main', 'render');
  const outfile = path.join(renderDir, 'render-worker.bundle.js');
  await esbuild.build({
    entryPoints: [path.join(renderDir, 'render-worker.js')],
    outfile,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target,
    sourcemap: 'linked',
    logLevel: 'silent',
    plugins: [moduleUrls(renderDir)],
  });
  fs.writeFileSync(
    path.join(renderDir, 'render-worker-entry.mjs'),
    "// Compiled core: the worker is JavaScript already, bundled, with no loader to register.\nexport { default } from './render-worker.bundle.js';\n",
  );
  return outfile;
}

/**
 * A module finds its fonts and templates relative to its own file (`import.meta.url`); in the
 * bundle each one still gets the URL of the file it was compiled to, not the bundle's.
 */
function moduleUrls(bundleDir) {
  return {
    name: 'module-urls',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const relative = path.relative(bundleDir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`)}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
}
