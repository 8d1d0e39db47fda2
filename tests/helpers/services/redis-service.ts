import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, saysAddressInUse } from './free-port.js';
import { findOnPath, logTail, makeServiceDir } from './service-dir.js';
import { ServiceProcess, waitUntilReady } from './service-process.js';
import type { ServiceScope } from './service-scope.js';

export interface RedisService {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** The server's pid (it changes on restart). */
  readonly pid: number;
  /** Where the append-only file lives. */
  readonly dir: string;
  /** SIGTERM (Redis flushes its AOF and exits), SIGKILL after a timeout. */
  stop(): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  /** Starts again on the same port: from its AOF, or with nothing (`empty`: the AOF deleted). */
  restart(options?: { empty?: boolean }): Promise<void>;
}

export interface RedisOptions {
  /** `noeviction` unless a test needs another (the core must refuse `allkeys-lru`). */
  maxmemoryPolicy?: string;
  /** `everysec` by default; `always` for tests that must not lose the last second. */
  appendfsync?: 'everysec' | 'always';
  /** How many numbered databases (16 by default): the run's shared Redis gives one per file. */
  databases?: number;
}

export function findRedisServer(): string {
  const found =
    findOnPath('redis-server') ?? ['/usr/bin/redis-server'].find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      'redis-server was not found on PATH. Install the Debian package redis-server ' +
        '(apt-get install redis-server); the cluster tests start their own server from it.',
    );
  }
  return found;
}

/** One PING over a plain socket: "+PONG" once Redis has loaded its data ("-LOADING" before). */
export function redisAnswersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ready: boolean) => {
      socket.destroy();
      resolve(ready);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * A redis-server of its own, configured as a cluster deployment should be: append-only file on,
 * no RDB snapshots, `noeviction`, listening on 127.0.0.1 only.
 */
export async function startRedis(
  scope: ServiceScope,
  options: RedisOptions = {},
): Promise<RedisService> {
  const binary = findRedisServer();
  const dir = scope.trackDir(makeServiceDir('redis'));
  const logFile = path.join(dir, 'redis.log');
  const configFile = path.join(dir, 'redis.conf');
  let port = 0;
  let server: ServiceProcess | undefined;

  const launch = async () => {
    fs.writeFileSync(
      configFile,
      [
        'bind 127.0.0.1',
        `port ${port}`,
        // Loopback only and no password: protected mode would refuse nobody here.
        'protected-mode no',
        'daemonize no',
        `dir ${dir}`,
        'appendonly yes',
        `appendfsync ${options.appendfsync ?? 'everysec'}`,
        'save ""',
        `maxmemory-policy ${options.maxmemoryPolicy ?? 'noeviction'}`,
        `databases ${options.databases ?? 16}`,
        'logfile ""',
        '',
      ].join('\n'),
    );
    server = scope.track(
      ServiceProcess.start({
        name: 'Redis',
        command: binary,
        args: [configFile],
        cwd: dir,
        logFile,
      }),
    );
    await waitUntilReady(server, () => redisAnswersPing(port));
  };

  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    try {
      await launch();
      break;
    } catch (error) {
      const size = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      if (attempt >= 3 || !saysAddressInUse(logTail(logFile, Math.max(0, size - logStart)))) {
        throw error;
      }
    }
  }

  const current = () => {
    if (!server) throw new Error('Redis was never started.');
    return server;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return current().pid;
    },
    dir,
    stop: () => current().stop('SIGTERM'),
    kill: (signal) => current().kill(signal),
    restart: async ({ empty = false } = {}) => {
      await current().stop('SIGTERM');
      if (empty) {
        // Redis 7 keeps its AOF in appendonlydir/, older ones in appendonly.aof.
        for (const name of ['appendonlydir', 'appendonly.aof', 'dump.rdb']) {
          fs.rmSync(path.join(dir, name), { recursive: true, force: true });
        }
      }
      await launch();
    },
  };
}
