import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the UI only when renderer/dist is missing or older than a source it is built from, so
 * `npm ci && npm start` works on a fresh machine and a second start costs nothing.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = path.join(root, 'renderer', 'dist', 'index.html');
const sources = [
  path.join(root, 'renderer'),
  path.join(root, 'shared'),
  path.join(root, 'vite.config.ts'),
  path.join(root, 'tsconfig.renderer.json'),
  fileURLToPath(import.meta.url),
];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) {
    if (name === 'dist' || name === 'node_modules' || name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

const builtAt = fs.existsSync(distIndex) ? fs.statSync(distIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map(newestMtime));
if (builtAt > 0 && builtAt >= sourcesAt) {
  process.exit(0);
}
console.log(
  builtAt === 0 ? 'Building the UI (first run)…' : 'Rebuilding the UI (sources changed)…',
);
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
if (!fs.existsSync(vite)) {
  console.error(
    'The UI cannot be built: vite is not installed. Run `npm ci` (with dev dependencies).',
  );
  process.exit(1);
}
// Always React's production build: vite follows NODE_ENV, and a test runner that calls this
// (vitest sets NODE_ENV=test) would otherwise ship React's development build, several times
// slower (the results table dropped a frame in five while scrolling).
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(result.status ?? 1);
