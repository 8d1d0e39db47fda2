import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort, saysAddressInUse } from './free-port.js';
import { findOnPath, logTail, makeServiceDir } from './service-dir.js';
import { ServiceProcess, waitUntilReady } from './service-process.js';
import type { ServiceScope } from './service-scope.js';

export interface PostgresService {
  /** `postgres://render:render@127.0.0.1:<port>/render_desk`: the app's role, owner of its database. */
  readonly url: string;
  /** The superuser on the same database, for tests that inspect or break things. */
  readonly adminUrl: string;
  readonly port: number;
  /** The postmaster's pid (it changes on restart). */
  readonly pid: number;
  readonly dataDir: string;
  /** Fast shutdown (SIGINT: clients are disconnected), SIGKILL after a timeout. */
  stop(): Promise<void>;
  /** Signals the postmaster's whole group: SIGKILL is a crash of the server. */
  kill(signal: NodeJS.Signals): void;
  /** Starts again on the same data folder and port (after stop() or kill()). */
  restart(): Promise<void>;
}

export interface PostgresOptions {
  user?: string;
  password?: string;
  database?: string;
}

interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * initdb and postgres from one folder: the one `postgres` on PATH lives in, else the newest
 * /usr/lib/postgresql/<version>/bin (where Debian puts them, off PATH).
 */
export function findPostgresBinaries(): PostgresBinaries {
  const folders: string[] = [];
  const onPath = findOnPath('postgres');
  if (onPath) folders.push(path.dirname(fs.realpathSync(onPath)));
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    const versions = fs
      .readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    folders.push(...versions.map((version) => path.join(debianRoot, version, 'bin')));
  }
  for (const folder of folders) {
    const initdb = path.join(folder, 'initdb');
    const postgres = path.join(folder, 'postgres');
    if (fs.existsSync(initdb) && fs.existsSync(postgres)) return { initdb, postgres };
  }
  throw new Error(
    "PostgreSQL's server programs (initdb, postgres) were found neither on PATH nor in " +
      '/usr/lib/postgresql/<version>/bin. Install the Debian package postgresql ' +
      '(apt-get install postgresql); the cluster tests start their own server from it.',
  );
}

/** PostgreSQL refuses to run as root: under root it runs as the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'The tests run as root and PostgreSQL refuses to, but there is no "postgres" user to run ' +
        'it as. Install the Debian package postgresql (it creates the user) or add one ' +
        '(useradd --system postgres).',
    );
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A PostgreSQL server of its own: initdb in a temporary folder, trust authentication, listening
 * on 127.0.0.1 only (and a socket in its own folder), with a role and a database for the app.
 */
export async function startPostgres(
  scope: ServiceScope,
  options: PostgresOptions = {},
): Promise<PostgresService> {
  const user = options.user ?? 'render';
  const password = options.password ?? 'render';
  const database = options.database ?? 'render_desk';
  const binaries = findPostgresBinaries();
  const owner = serverUser();
  const base = scope.trackDir(makeServiceDir('postgres', owner?.uid));
  const dataDir = path.join(base, 'data');
  const socketDir = path.join(base, 'socket');
  const logFile = path.join(base, 'postgres.log');
  for (const dir of [dataDir, socketDir]) {
    fs.mkdirSync(dir, { mode: 0o700 });
    if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', HOME: base };
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};

  // --no-sync: initdb's own fsync of the fresh cluster is minutes of I/O on a busy machine; the
  // server itself runs with fsync on.
  const init = spawnSync(
    binaries.initdb,
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { cwd: base, env, encoding: 'utf8', ...asOwner },
  );
  if (init.status !== 0) {
    throw new Error(`initdb failed (status ${init.status}):\n${init.stderr}${init.stdout}`);
  }

  let port = 0;
  let server: ServiceProcess | undefined;
  const launch = async () => {
    server = scope.track(
      ServiceProcess.start({
        name: 'PostgreSQL',
        command: binaries.postgres,
        args: [
          '-D',
          dataDir,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${socketDir}`,
          '-c',
          'fsync=on',
          '-c',
          'max_connections=200',
        ],
        cwd: base,
        logFile,
        env,
        ...asOwner,
      }),
      // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
      'SIGINT',
    );
    await waitUntilReady(server, () =>
      canConnect(`postgres://postgres@127.0.0.1:${port}/postgres`),
    );
  };

  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    try {
      await launch();
      break;
    } catch (error) {
      const size = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      const log = logTail(logFile, Math.max(0, size - logStart));
      if (attempt >= 3 || !saysAddressInUse(log)) throw error;
    }
  }

  const admin = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
  });
  await admin.connect();
  try {
    await admin.query(
      `CREATE ROLE ${quoteIdent(user)} LOGIN PASSWORD '${password.replace(/'/g, "''")}'`,
    );
    await admin.query(`CREATE DATABASE ${quoteIdent(database)} OWNER ${quoteIdent(user)}`);
  } finally {
    await admin.end();
  }

  const current = () => {
    if (!server) throw new Error('PostgreSQL was never started.');
    return server;
  };
  return {
    url: `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    get pid() {
      return current().pid;
    },
    dataDir,
    stop: () => current().stop('SIGINT'),
    kill: (signal) => current().kill(signal),
    restart: async () => {
      await current().stop('SIGINT');
      await launch();
    },
  };
}
