import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { CORE_NODE_FLAGS, coreProcessEnv } from '../../main/core-process-env.js';
import { REPO_ROOT } from './image-fixtures.js';

/**
 * `main/serve.ts` as a child process (what a user runs), for tests that kill it with SIGKILL and
 * start it again on the same data directory. Resolves with its URL once it listens.
 */
export function spawnServe(
  dataDir: string,
  env: Record<string, string>,
  workers = 2,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...CORE_NODE_FLAGS,
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'main', 'serve.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--workers',
      String(workers),
    ],
    {
      cwd: REPO_ROOT,
      env: coreProcessEnv({ ...process.env, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}
