import { spawn, type ChildProcess } from 'node:child_process';
import { CORE_NODE_FLAGS, coreProcessEnv } from '../../main/core-process-env.js';
import { compiledServeEntry } from './compiled-core.js';
import { REPO_ROOT } from './image-fixtures.js';

export interface SpawnedServe {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves when it has exited (at once if it already has). */
  exited(): Promise<void>;
}

export interface SpawnServeOptions {
  /** More flags for serve.ts. */
  args?: string[];
  /** A soft limit on open files for the server process (Unix shells' `ulimit -n`). */
  openFileLimit?: number;
}

/**
 * The headless server (main/serve.ts, compiled once per run: tests/helpers/compiled-core.ts) as a
 * child process (what a user runs), for tests that kill it with SIGKILL and
 * start it again on the same data directory, or read what it prints. Resolves with its URL once
 * it listens.
 */
export function spawnServe(
  dataDir: string,
  env: Record<string, string>,
  workers = 2,
  options: SpawnServeOptions = {},
): Promise<SpawnedServe> {
  const node = [
    process.execPath,
    ...CORE_NODE_FLAGS,
    compiledServeEntry(),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--workers',
    String(workers),
    ...(options.args ?? []),
  ];
  const [command, ...args] =
    options.openFileLimit === undefined
      ? node
      : ['/bin/sh', '-c', `ulimit -n ${options.openFileLimit} && exec "$@"`, 'serve', ...node];
  const child = spawn(command!, args, {
    cwd: REPO_ROOT,
    env: coreProcessEnv({ ...process.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, exited: () => exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}
