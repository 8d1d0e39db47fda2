// The type-check needs Electron's type definitions (main/shell is checked against them), never its
// binary. Electron is an optional dependency: where its binary cannot be downloaded, a plain
// `npm ci` drops the whole package, definitions included. This puts the package back, with the
// lockfile's version and without the download, so `npm ci && npm test` works as well as the
// README's `ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci && npm test`. Plain JavaScript: it runs before
// anything is compiled.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function provideElectronTypes(root, say = (line) => console.error(line)) {
  const definitions = path.join(root, 'node_modules', 'electron', 'electron.d.ts');
  if (fs.existsSync(definitions)) return true;
  say(
    "test prerequisites: Electron's type definitions are missing; installing the package without its binary…",
  );
  const started = Date.now();
  // npm_execpath is npm's own script when run through `npm test`; plain `npm` otherwise.
  const npm = process.env.npm_execpath;
  const [program, args] = npm?.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const result = spawnSync(
    program,
    [...args, 'install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    },
  );
  if (result.status !== 0 || !fs.existsSync(definitions)) {
    say(
      "test prerequisites: Electron's type definitions could not be installed. Run:\n\n  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci\n\nthen npm test again.",
    );
    return false;
  }
  say(
    `test prerequisites: Electron's type definitions installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  );
  return true;
}
