// The system programs the test suite drives, provided before any test starts: Chromium (browser
// tests), redis-server and PostgreSQL's server (cluster and data tests start their own, on random
// loopback ports) and poppler's tools (every PDF is opened with them). On Debian and Ubuntu the
// missing ones are installed the way `playwright install --with-deps` installs a browser's
// libraries: apt-get, non-interactive, only what is missing, as root or through a sudo that asks
// no password. Anyone else gets one message naming the one command to run, in the first seconds,
// instead of dozens of failing tests. Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const POPPLER_TOOLS = ['pdfinfo', 'pdffonts', 'pdftotext', 'pdftoppm', 'pdfimages'];

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/** initdb and postgres on PATH, or in Debian's /usr/lib/postgresql/<version>/bin. */
function hasPostgres() {
  if (onPath('initdb') && onPath('postgres')) return true;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return false;
  return fs
    .readdirSync(root)
    .some(
      (version) =>
        fs.existsSync(path.join(root, version, 'bin', 'initdb')) &&
        fs.existsSync(path.join(root, version, 'bin', 'postgres')),
    );
}

/** Run as root, PostgreSQL refuses to start: the tests run it as the `postgres` user. */
function hasPostgresUser() {
  if (process.getuid?.() !== 0) return true;
  return spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status === 0;
}

/** What the suite needs: a check, and the Debian package that provides it. */
export const PREREQUISITES = [
  {
    name: "Chromium's headless shell",
    pkg: 'chromium-headless-shell',
    present: () => fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell'),
  },
  {
    name: 'redis-server',
    pkg: 'redis-server',
    present: () => Boolean(onPath('redis-server') || fs.existsSync('/usr/bin/redis-server')),
  },
  {
    name: "PostgreSQL's server",
    pkg: 'postgresql',
    present: () => hasPostgres() && hasPostgresUser(),
  },
  {
    name: "poppler's PDF tools",
    pkg: 'poppler-utils',
    present: () => POPPLER_TOOLS.every((tool) => onPath(tool)),
  },
];

export function missingPrerequisites() {
  return PREREQUISITES.filter((need) => !need.present());
}

/** How this process may run apt-get: directly (root), through sudo without a password, or not. */
function installer() {
  if (process.platform !== 'linux' || !onPath('apt-get')) return null;
  if (process.getuid?.() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0)
    return ['sudo', '-n'];
  return null;
}

function run(prefix, command, args) {
  const [program, ...rest] = [...prefix, command, ...args];
  const result = spawnSync(program, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/**
 * Installs what is missing, or explains what to run. Returns true when everything is there.
 * `say` prints one line.
 */
export function providePrerequisites(say = (line) => console.error(line)) {
  const missing = missingPrerequisites();
  if (missing.length === 0) return true;
  const packages = missing.map((need) => need.pkg);
  const names = missing.map((need) => need.name).join(', ');
  const command = `sudo apt-get install -y ${packages.join(' ')}`;
  const prefix = installer();
  if (prefix === null) {
    say(
      process.platform === 'linux' && onPath('apt-get')
        ? `npm test needs ${names}, which this user cannot install. Run:\n\n  ${command}\n\nthen npm test again.`
        : `npm test needs ${names} (Debian packages: ${packages.join(', ')}). The suite installs them itself only on Debian and Ubuntu; install them with your system's package manager and run npm test again.`,
    );
    return false;
  }
  say(`test prerequisites: installing ${packages.join(', ')} with apt-get (${names} missing)…`);
  const started = Date.now();
  const installed =
    run(prefix, 'apt-get', ['update', '-qq']) &&
    run(prefix, 'apt-get', ['install', '-y', '-qq', ...packages]);
  if (!installed || missingPrerequisites().length > 0) {
    say(
      `test prerequisites: apt-get could not install ${packages.join(', ')}. Run:\n\n  ${command}\n\nthen npm test again.`,
    );
    return false;
  }
  // Debian starts the packaged servers; the tests start their own on random ports instead.
  for (const service of ['redis-server', 'postgresql']) {
    if (packages.includes(service))
      spawnSync(...splitCommand([...prefix, 'service', service, 'stop']), { stdio: 'ignore' });
  }
  say(`test prerequisites: installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return true;
}

function splitCommand([program, ...args]) {
  return [program, args];
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  process.exit(providePrerequisites() ? 0 : 1);
}
