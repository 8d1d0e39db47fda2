import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { coreNodeFlags, coreProcessEnv } from '../../main/core-process-env.js';
import { compiledServeEntry } from './compiled-core.js';
import { REPO_ROOT } from './image-fixtures.js';
import { testFetch, type TestResponse } from './test-server.js';
import {
  startPostgres,
  startRedis,
  startS3,
  type PostgresService,
  type RedisService,
  type S3Service,
} from './cluster-services.js';
import type { ServiceScope } from './services/service-scope.js';
import {
  sharedBucket,
  sharedPostgresDatabase,
  sharedRedisDatabase,
} from './services/shared-services.js';

/** What nodes need of the services: their addresses (a test file's own servers, or the run's). */
export interface ClusterServiceAddresses {
  postgres: { url: string; adminUrl: string };
  redis: { url: string };
  s3: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
  };
}

export interface ClusterEnvironment<
  Services extends ClusterServiceAddresses = ClusterServiceAddresses,
> {
  postgres: Services['postgres'];
  redis: Services['redis'];
  s3: Services['s3'];
  apiKey: string;
  /** Short locks, so that failover happens within a test (see main/cluster/chunk-queue.ts). */
  lockMs: number;
}

export interface ClusterNodeProcess {
  child: ChildProcess;
  role: 'api' | 'worker' | 'all';
  /** The API's URL (roles api and all). */
  url: string | null;
  dataDir: string;
  output(): string;
  /** Sends a signal to the node (SIGKILL: a crash; SIGSTOP/SIGCONT: a frozen process). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM and wait; SIGKILL after 20 s. Removes its data folder. */
  stop(): Promise<void>;
}

/** A request to a node's API with the cluster's key; `json` is sent as the JSON body. */
export function callNode(
  env: ClusterEnvironment,
  node: ClusterNodeProcess,
  pathname: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<TestResponse> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${env.apiKey}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return testFetch(`${node.url}${pathname}`, { ...init, headers, body });
}

/** The environment every node of the test cluster is started with (secrets only here). */
export function clusterEnv(env: ClusterEnvironment): Record<string, string> {
  return {
    RENDER_DESK_CLUSTER: env.postgres.url,
    RENDER_DESK_S3_ACCESS_KEY_ID: env.s3.accessKeyId,
    RENDER_DESK_S3_SECRET_ACCESS_KEY: env.s3.secretAccessKey,
    RENDER_DESK_API_KEY: env.apiKey,
    RENDER_DESK_CREDITS: '100000',
    RENDER_DESK_RATE_LIMIT: '100000',
    RENDER_DESK_CHUNK_LOCK_MS: String(env.lockMs),
    RENDER_DESK_GC_GRACE_MS: String(env.lockMs * 3),
    // A Redis switched to an evicting policy mid-test is noticed within a second.
    RENDER_DESK_EVICTION_CHECK_MS: '500',
  };
}

/** `render-desk cluster init` as an operator runs it; resolves with its exit code and output. */
export function clusterInit(
  env: ClusterEnvironment,
  queue: string,
  store: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(REPO_ROOT, 'bin', 'render-desk.mjs'),
        'cluster',
        'init',
        '--queue',
        queue,
        '--store',
        store,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...clusterEnv(env) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A cluster node as an operator starts it: `serve --cluster --role …`, its own data folder. */
export function startClusterNode(
  env: ClusterEnvironment,
  role: 'api' | 'worker' | 'all',
  options: {
    workers?: number;
    extraEnv?: Record<string, string>;
    /** Node flags instead of the role's own (a benchmark comparing them). */
    nodeFlags?: readonly string[];
    /**
     * How it is started: the server entry directly (as the image does; compiled once per run,
     * tests/helpers/compiled-core.ts), or through main/start.ts as `npm run serve -- --role …`
     * does, which picks the role's Node flags itself; or 'npm-run-serve': `npm run serve -- …`
     * itself, npm and its shell included (what a service manager runs when told to run that); or
     * 'render-desk': `render-desk serve --role …`.
     */
    entry?: 'serve' | 'npm-serve' | 'npm-run-serve' | 'render-desk';
    /**
     * Its standard input: 'ignore' (Node hands the child /dev/null), or '/dev/null' opened here
     * and passed as the descriptor, as systemd, compose without a TTY or `nohup … </dev/null` do.
     */
    stdin?: 'ignore' | '/dev/null';
    /**
     * Started in a process group of its own: signal() reaches every process of the node (with
     * entry 'npm-serve', main/start.ts and the server it starts), as when an orchestrator kills
     * a container or a cgroup. Without it, SIGKILL reaches the first process only.
     */
    processGroup?: boolean;
  } = {},
): Promise<ClusterNodeProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rd-node-${role}-`));
  const coreArgs = [
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--workers',
    String(options.workers ?? 1),
    '--role',
    role,
  ];
  const stdin = options.stdin === '/dev/null' ? fs.openSync('/dev/null', 'r') : 'ignore';
  const processGroup = options.processGroup ?? false;
  let child: ChildProcess;
  try {
    child = spawn(
      options.entry === 'npm-run-serve' ? 'npm' : process.execPath,
      options.entry === 'npm-run-serve'
        ? ['run', 'serve', '--', ...coreArgs]
        : options.entry === 'npm-serve'
          ? ['--import', 'tsx', path.join(REPO_ROOT, 'main', 'start.ts'), '--headless', ...coreArgs]
          : options.entry === 'render-desk'
            ? [path.join(REPO_ROOT, 'bin', 'render-desk.mjs'), 'serve', ...coreArgs]
            : [
                // The flags `npm run serve` and the image give a node of this role.
                ...(options.nodeFlags ?? coreNodeFlags(role)),
                compiledServeEntry(),
                ...coreArgs,
              ],
      {
        cwd: REPO_ROOT,
        env: coreProcessEnv({ ...process.env, ...clusterEnv(env), ...options.extraEnv }),
        stdio: [stdin, 'pipe', 'pipe'],
        detached: processGroup,
      },
    );
  } finally {
    // The child has its own copy of the descriptor.
    if (typeof stdin === 'number') fs.closeSync(stdin);
  }
  const kill = (signal: NodeJS.Signals) => {
    if (!processGroup || child.pid === undefined) {
      child.kill(signal);
      return;
    }
    try {
      process.kill(-child.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the ${role} node did not start in 90 s:\n${output}`)),
      90_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/cluster node \S+ started/.test(output)) return;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? null;
      if (role !== 'worker' && !url) return;
      clearTimeout(timer);
      resolve({
        child,
        role,
        url,
        dataDir,
        output: () => output,
        signal: (signal) => {
          // A group may outlive its first process: the signal still goes to the rest.
          if (processGroup || child.exitCode === null) kill(signal);
        },
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            kill('SIGCONT');
            child.kill('SIGTERM');
            const killer = setTimeout(() => kill('SIGKILL'), 20_000);
            await exited;
            clearTimeout(killer);
          }
          // Whatever of its group is left (a process whose parent was SIGKILLed alone).
          if (processGroup) kill('SIGKILL');
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${role} node exited with ${code} before starting:\n${output}`));
    });
  });
}

/** The servers a test file starts itself: it may stop, kill or restart them. */
export interface OwnClusterServices extends ClusterServiceAddresses {
  postgres: PostgresService;
  redis: RedisService;
  s3: S3Service;
}

/**
 * PostgreSQL, Redis and s3rver started in `scope` (for files that stop, kill or reconfigure
 * them), and `render-desk cluster init` run against them (the queue on that Redis, the store in
 * that bucket): a cluster ready for nodes. Throws with init's output when it fails.
 */
export async function startInitialisedCluster(
  scope: ServiceScope,
  options: { lockMs?: number } = {},
): Promise<ClusterEnvironment<OwnClusterServices>> {
  const [postgres, redis, s3] = await Promise.all([
    startPostgres(scope),
    startRedis(scope),
    startS3(scope),
  ]);
  return initialise({ postgres, redis, s3 }, options);
}

/**
 * A cluster of its own on the run's shared servers (tests/helpers/services/shared-services.ts):
 * its own database, Redis database number and bucket, with `render-desk cluster init` run on
 * them. For files that leave the servers themselves alone.
 */
export async function sharedInitialisedCluster(
  options: { lockMs?: number } = {},
): Promise<ClusterEnvironment> {
  const [postgres, redis, s3] = await Promise.all([
    sharedPostgresDatabase(),
    sharedRedisDatabase(),
    sharedBucket(),
  ]);
  return initialise({ postgres, redis, s3 }, options);
}

async function initialise<Services extends ClusterServiceAddresses>(
  services: Services,
  options: { lockMs?: number },
): Promise<ClusterEnvironment<Services>> {
  const env: ClusterEnvironment<Services> = {
    ...services,
    apiKey: `rdk_cluster_${crypto.randomBytes(12).toString('hex')}`,
    lockMs: options.lockMs ?? 4000,
  };
  const { redis, s3 } = services;
  const init = await clusterInit(
    env,
    redis.url,
    `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}`,
  );
  if (init.code !== 0)
    throw new Error(`cluster init failed (${String(init.code)}):\n${init.output}`);
  return env;
}
