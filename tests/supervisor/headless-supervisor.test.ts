import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledFile } from '../helpers/compiled-core.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { testFetch, type Json } from '../helpers/test-server.js';

/**
 * `npm run serve` (main/start.ts --headless) runs the core under the desktop shell's supervisor:
 * a core that dies is started again, with backoff, and says so; SIGTERM/SIGINT stop it for good.
 * Launched from the core compiled once per run (its start.js starts its serve.js), so that no
 * start transpiles the sources; the last test runs `npm run serve` itself (start.ts under tsx),
 * as does serve.test.ts.
 */

const KEY = 'rdk_headless_supervisor_0123456789';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

interface Launcher {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function launch(args: string[], options: { softOpenFiles?: number } = {}): Launcher {
  const node = [process.execPath, compiledFile(path.join('main', 'start.js'))];
  const [command, ...rest] =
    options.softOpenFiles === undefined
      ? [...node, '--headless', ...args]
      : [
          '/bin/sh',
          '-c',
          `ulimit -S -n ${options.softOpenFiles} && exec "$@"`,
          'start',
          ...node,
          '--headless',
          ...args,
        ];
  const child = spawn(command!, rest, {
    cwd: REPO_ROOT,
    env: { ...process.env, RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-headless-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function corePid(dataDir: string): number {
  const pid = (JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as Json).pid;
  cleanups.push(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  });
  return pid as number;
}

describe('the headless server under its supervisor', () => {
  it('starts a core killed with SIGKILL again, says so, and finishes the batch it was running', async () => {
    const dataDir = tempDataDir();
    const launcher = launch(['--port', '0', '--data-dir', dataDir, '--workers', '1']);
    const [, url] = await launcher.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const api = (pathname: string, body?: unknown) =>
      testFetch(url + pathname, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const detail: Json = await (await api('/v1/catalog/tmpl_product_promo')).json();
    const created: Json = await (
      await api('/v1/render-batches', {
        templateId: detail.id,
        sourceType: 'json-array',
        source: { records: Array.from({ length: 60 }, () => detail.sampleValues) },
      })
    ).json();
    const firstPid = corePid(dataDir);
    process.kill(firstPid, 'SIGKILL');

    await launcher.waitFor(
      /render-desk: the server stopped unexpectedly \(the core was killed by SIGKILL\); starting it again in 0\.5 s \(attempt 2\)\./,
    );
    await launcher.waitFor(/render-desk: the server is running again \(pid \d+\)/);
    // Same port: clients and server.json stay right.
    expect(launcher.output().match(/listening on http:\/\/127\.0\.0\.1:\d+/g)).toEqual([
      `listening on ${url}`,
      `listening on ${url}`,
    ]);
    expect(corePid(dataDir)).not.toBe(firstPid);

    let batch: Json;
    for (;;) {
      batch = await (await api(`/v1/render-batches/${created.id}`)).json();
      if (!['queued', 'running'].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(batch).toMatchObject({ status: 'succeeded', total: 60, succeeded: 60, failed: 0 });
    // Every row charged once, whatever the kill interrupted.
    expect((await (await api('/v1/account')).json()).balance).toBe(500 - 60);
    expect(launcher.child.exitCode).toBeNull();
  }, 180_000);

  it('stops for good on SIGINT, without a restart', async () => {
    const dataDir = tempDataDir();
    const launcher = launch(['--port', '0', '--data-dir', dataDir, '--workers', '1']);
    await launcher.waitFor(/^UI: /m);
    const pid = corePid(dataDir);
    launcher.child.kill('SIGINT');
    expect(await launcher.exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    expect(launcher.output()).not.toMatch(/starting it again/);
  }, 120_000);

  it('exits with code 2 and the core’s own message when the core refuses its settings', async () => {
    const launcher = launch([
      '--port',
      '0',
      '--data-dir',
      tempDataDir(),
      '--render-timeout',
      'soon',
    ]);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toMatch(/render-timeout must be a number of seconds/);
    expect(launcher.output()).not.toMatch(/starting it again/);
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'runs the core with its soft limit on open files raised to the hard limit',
    async () => {
      // Started with a soft limit of 512: Node raises its own soft limit to the hard limit as it
      // starts, which is what the connection cap is then computed from.
      const dataDir = tempDataDir();
      const launcher = launch(['--port', '0', '--data-dir', dataDir, '--workers', '1'], {
        softOpenFiles: 512,
      });
      await launcher.waitFor(/^UI: /m);
      const line = /^Max open files\s+(\d+)\s+(\d+)/m.exec(
        fs.readFileSync(`/proc/${corePid(dataDir)}/limits`, 'utf8'),
      );
      expect(Number(line?.[1])).toBe(Number(line?.[2]));
      expect(Number(line?.[1])).toBeGreaterThan(512);
    },
    120_000,
  );

  it("stops gracefully when `npm run serve` itself is stopped, though npm's shell passes no SIGTERM on", async () => {
    const dataDir = tempDataDir();
    const npm = spawn(
      'npm',
      ['run', 'serve', '--', '--port', '0', '--data-dir', dataDir, '--workers', '1'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, RENDER_DESK_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cleanups.push(() => npm.kill('SIGKILL'));
    for (let i = 0; !/^UI: /m.test(output); i++) {
      if (i > 1200) throw new Error(`the server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pid = corePid(dataDir);
    // What a service manager, `docker stop` or `kill` does: SIGTERM to npm alone.
    npm.kill('SIGTERM');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; alive() && i < 300; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
    // A graceful stop: the core removed its server.json as it closed.
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  }, 120_000);
});
