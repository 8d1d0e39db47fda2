// The system programs the test suite drives, provided before any test starts: Chromium (browser
// tests), redis-server and PostgreSQL's server (cluster and data tests start their own, on random
// loopback ports) and poppler's tools (every PDF is opened with them). On Debian and Ubuntu the
// missing ones are installed the way `playwright install --with-deps` installs a browser's
// libraries: apt-get, non-interactive, without recommendations, only what is missing, as root or
// through a sudo that asks no password. Anyone else gets one message naming the one command to
// run, in the first seconds, instead of dozens of failing tests. Plain JavaScript: it runs before
// anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
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

/** Runs a command to its end without blocking this process: what else is starting goes on. */
function run(prefix, command, args, output = 'inherit') {
  const [program, ...rest] = [...prefix, command, ...args];
  return new Promise((resolve) => {
    const child = spawn(program, rest, {
      stdio: ['ignore', output, output],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/**
 * What providing the prerequisites takes, decided at once and without side effects:
 * - `{ ready: true }`: everything is there;
 * - `{ install }`: what is missing can be installed here (install() does it, returns true when
 *   everything is there afterwards);
 * - `{ message }`: it cannot; the message names the one command to run.
 */
export function prerequisitesPlan(say = (line) => console.error(line)) {
  const missing = missingPrerequisites();
  if (missing.length === 0) return { ready: true };
  const packages = missing.map((need) => need.pkg);
  const names = missing.map((need) => need.name).join(', ');
  const command = `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const prefix = installer();
  if (prefix === null) {
    return {
      message:
        process.platform === 'linux' && onPath('apt-get')
          ? `npm test needs ${names}, which this user cannot install. Run:\n\n  ${command}\n\nthen npm test again.`
          : `npm test needs ${names} (Debian packages: ${packages.join(', ')}). The suite installs them itself only on Debian and Ubuntu; install them with your system's package manager and run npm test again.`,
    };
  }
  const install = async () => {
    say(`test prerequisites: installing ${packages.join(', ')} with apt-get (${names} missing)…`);
    const started = Date.now();
    // Without the packages' recommendations (printer dialogs, mDNS, a desktop's Perl web stack):
    // the tests drive the programs themselves, and those extras were about 85 more packages and
    // more than half the install's time.
    const installed =
      (await run(prefix, 'apt-get', ['update', '-qq'])) &&
      (await run(prefix, 'apt-get', [
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        ...packages,
      ]));
    if (!installed || missingPrerequisites().length > 0) {
      say(
        `test prerequisites: apt-get could not install ${packages.join(', ')}. Run:\n\n  ${command}\n\nthen npm test again.`,
      );
      return false;
    }
    // Debian starts the packaged servers; the tests start their own on random ports instead.
    for (const service of ['redis-server', 'postgresql']) {
      if (packages.includes(service)) await run(prefix, 'service', [service, 'stop'], 'ignore');
    }
    say(`test prerequisites: installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
    return true;
  };
  return { install };
}

/**
 * `node scripts/test-prerequisites.mjs` on its own: installs what is missing, or explains what to
 * run. Resolves true when everything is there. (`npm test` uses the plan itself, to install
 * beside its builds.)
 */
async function providePrerequisites(say = (line) => console.error(line)) {
  const plan = prerequisitesPlan(say);
  if (plan.ready) return true;
  if (plan.message) {
    say(plan.message);
    return false;
  }
  return plan.install();
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  process.exit((await providePrerequisites()) ? 0 : 1);
}
