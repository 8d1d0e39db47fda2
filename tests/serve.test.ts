import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CORE_MALLOC_ENV,
  CORE_NODE_FLAGS,
  coreProcessEnv,
  hasCoreProcessEnv,
} from '../main/core-process-env.js';
import { compiledServeEntry } from './helpers/compiled-core.js';
import { REPO_ROOT } from './helpers/image-fixtures.js';
import { testFetch } from './helpers/test-server.js';

/**
 * The headless entry with `args`: compiled once per run (as the container image runs it) for
 * what the server does, and `npm run serve`'s own command (start.ts under tsx) where the way it
 * starts is what a test checks.
 */
function startServe(
  args: string[],
  env: Record<string, string> = {},
  entry: 'serve' | 'npm run serve' = 'serve',
) {
  const child = spawn(
    process.execPath,
    entry === 'serve'
      ? [compiledServeEntry(), ...args]
      : ['--import', 'tsx', path.join(REPO_ROOT, 'main', 'start.ts'), '--headless', ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = async (pattern: RegExp, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = pattern.exec(output);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`serve exited early:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${pattern}:\n${output}`);
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, waitFor, exited, output: () => output };
}

describe('the headless server (main/serve)', () => {
  it('prints the URL and a first key, writes server.json, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-serve-'));
    const serve = startServe(['--port', '0', '--data-dir', dataDir, '--workers', '1'], {
      RENDER_DESK_CREDITS: '7',
    });
    try {
      const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const [, key] = await serve.waitFor(/API key \(shown once, store it now\): (\S+)/);
      const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8'));
      expect(info).toMatchObject({ url, pid: serve.child.pid });
      expect(info.port).toBe(Number(new URL(url!).port));
      const account = await (
        await testFetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
      ).json();
      expect(account.balance).toBe(7);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    } finally {
      serve.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ensures the key given in RENDER_DESK_API_KEY and never prints it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-serve-'));
    const secret = 'rdk_from_environment_0123456789';
    const serve = startServe(['--port', '0', '--data-dir', dataDir, '--workers', '1'], {
      RENDER_DESK_API_KEY: secret,
    });
    try {
      const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const res = await testFetch(`${url}/v1/account`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status).toBe(200);
      expect(serve.output()).not.toContain(secret);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    } finally {
      serve.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses an invalid flag value with a clear message and exit code 2', async () => {
    const serve = startServe(['--port', 'eighty']);
    expect(await serve.exited).toBe(2);
    expect(serve.output()).toMatch(/port must be a whole number/);
  });
});

describe('npm run serve (start.ts --headless)', () => {
  it('runs the server in a child process with the core environment, and stops it on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-serve-'));
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('MALLOC_')),
    ) as Record<string, string>;
    const launcher = startServe(
      ['--port', '0', '--data-dir', dataDir, '--workers', '1'],
      env,
      'npm run serve',
    );
    let serverPid: number | undefined;
    try {
      await launcher.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect(launcher.output()).not.toContain('Electron is not installed');
      const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8'));
      serverPid = info.pid as number;
      expect(serverPid).not.toBe(launcher.child.pid);
      if (process.platform === 'linux') {
        const environ = fs.readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
        for (const [name, value] of Object.entries(CORE_MALLOC_ENV))
          expect(environ).toContain(`${name}=${value}`);
        const commandLine = fs.readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0');
        for (const flag of CORE_NODE_FLAGS) expect(commandLine).toContain(flag);
      }
      launcher.child.kill('SIGTERM');
      expect(await launcher.exited).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    } finally {
      launcher.child.kill('SIGKILL');
      if (serverPid !== undefined) {
        try {
          process.kill(serverPid, 'SIGKILL');
        } catch {
          // Already gone, as it should be.
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps malloc settings the user chose', () => {
    const env = coreProcessEnv({ MALLOC_TRIM_THRESHOLD_: '0', PATH: '/bin' });
    expect(env).toMatchObject({
      MALLOC_TRIM_THRESHOLD_: '0',
      MALLOC_MMAP_THRESHOLD_: CORE_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_,
      PATH: '/bin',
    });
    expect(hasCoreProcessEnv(env, [...CORE_NODE_FLAGS])).toBe(true);
    expect(hasCoreProcessEnv(env, [])).toBe(false);
    expect(hasCoreProcessEnv({ PATH: '/bin' }, [...CORE_NODE_FLAGS])).toBe(false);
  });
});

describe('preferences saved in the app', () => {
  it('apply workers at the next start unless a flag or the environment sets them', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-serve-'));
    const key = 'rdk_preferences_test_0123456789';
    const env = { RENDER_DESK_API_KEY: key };
    const system = async (url: string) =>
      (await testFetch(`${url}/v1/system`, { headers: { authorization: `Bearer ${key}` } })).json();
    try {
      let serve = startServe(['--port', '0', '--data-dir', dataDir], env);
      let [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const saved = await testFetch(`${url}/v1/system/preferences`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workers: 1, port: null, theme: 'dark', language: 'vi' }),
      });
      expect(saved.status).toBe(200);
      serve.child.kill('SIGTERM');
      await serve.exited;

      serve = startServe(['--port', '0', '--data-dir', dataDir], env);
      [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect(await system(url!)).toMatchObject({
        workers: 1,
        preferences: { theme: 'dark', language: 'vi' },
      });
      serve.child.kill('SIGTERM');
      await serve.exited;

      serve = startServe(['--port', '0', '--data-dir', dataDir, '--workers', '2'], env);
      [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect((await system(url!)).workers).toBe(2);
      serve.child.kill('SIGTERM');
      await serve.exited;
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
