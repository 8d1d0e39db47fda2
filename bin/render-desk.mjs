#!/usr/bin/env node
// The package's `render-desk` command. It runs the core compiled to JavaScript (built on first
// use and after any source change, see compiled-core.mjs); where it cannot be built (no esbuild,
// a read-only checkout) it runs the TypeScript entry through tsx's loader, as it always could.
// `serve` keeps the TypeScript entry: the server finds its UI and child processes by the sources.
const command = process.argv[2];
let entry = null;
if (command !== 'serve' && command !== 'cluster') {
  const { buildCompiledCore, currentBuild, useBuild } = await import('./compiled-core.mjs');
  try {
    entry = currentBuild();
    if (!entry || !useBuild(entry)) {
      entry = await buildCompiledCore();
      if (!useBuild(entry)) entry = null;
    }
  } catch (error) {
    if (process.env.RENDER_DESK_DEBUG)
      console.error('render-desk: running the TypeScript sources, as compiling failed:', error);
  }
}
if (entry) {
  const { pathToFileURL } = await import('node:url');
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../main/cli/render-desk.ts');
}
