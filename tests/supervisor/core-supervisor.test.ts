import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreLaunchSpec } from '../../main/supervisor/core-launch.js';
import {
  backoffDelay,
  CoreSupervisor,
  type CoreState,
} from '../../main/supervisor/core-supervisor.js';
import { compiledCoreDir } from '../helpers/compiled-core.js';
import { openUiSession } from '../helpers/ui-session.js';

/**
 * The supervisor against the real headless entry, started as the development shell starts it
 * (plain Node, the stdin watchdog loaded first) from the core compiled once per run rather than
 * main/serve.ts under tsx, which would transpile the sources at every start: no Electron
 * involved. How the development spec itself reads is checked in shell/launch-and-menu.test.ts,
 * and `npm run serve` runs it for real in serve.test.ts and headless-supervisor.test.ts.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-shell-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function developmentSpec(dataDir: string, extraArgs: string[] = ['--workers', '1']) {
  return (port: number) =>
    coreLaunchSpec({
      appRoot: compiledCoreDir(),
      packaged: false,
      compiled: true,
      execPath: process.execPath,
      nodePath: process.execPath,
      port,
      dataDir,
      extraArgs,
      env: { ...process.env, RENDER_DESK_CREDITS: '5' },
      supervised: true,
    });
}

function supervise(dataDir: string, options: { extraArgs?: string[]; initialMs?: number } = {}) {
  const log: string[] = [];
  const states: CoreState[] = [];
  const supervisor = new CoreSupervisor({
    launchSpec: developmentSpec(dataDir, options.extraArgs),
    backoff: { initialMs: options.initialMs ?? 300, maxMs: 5_000 },
    log: (line) => log.push(line),
  });
  supervisor.onState((state) => states.push(state));
  cleanups.push(() => supervisor.stop());
  return { supervisor, log, states };
}

/** Opens the UI link as the window would: the page trades the one-time token for a session. */
async function openUiLink(link: string): Promise<{ account: { balance: number } }> {
  const headers = await openUiSession(link);
  const response = await fetch(new URL('/v1/account', link), { headers });
  expect(response.status).toBe(200);
  return { account: (await response.json()) as { balance: number } };
}

async function waitForExit(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`process ${pid} still alive`);
}

describe('core supervisor', () => {
  it('starts the real core, reads its UI link and opens a working session with it', async () => {
    const dataDir = tempDataDir();
    const { supervisor, log } = supervise(dataDir);
    const ready = await supervisor.start();

    expect(ready.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.uiLink.startsWith(`${ready.origin}/ui/session?token=`)).toBe(true);
    const { account } = await openUiLink(ready.uiLink);
    expect(account.balance).toBe(5);
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as {
      pid: number;
    };
    expect(info.pid).toBe(ready.pid);
    // The launch token and the first API key are secrets: never in the shell's log.
    expect(log.join('\n')).not.toContain(new URL(ready.uiLink).searchParams.get('token'));
    expect(log.join('\n')).not.toMatch(/rdk_/);
  });

  it('restarts a core killed with SIGKILL after a backoff, on the same port, with a new working link', async () => {
    const dataDir = tempDataDir();
    const { supervisor, states } = supervise(dataDir, { initialMs: 400 });
    const first = await supervisor.start();
    const next = supervisor.nextReady();
    const killedAt = Date.now();
    process.kill(first.pid, 'SIGKILL');
    const second = await next;

    expect(second.pid).not.toBe(first.pid);
    expect(second.origin).toBe(first.origin);
    expect(second.uiLink).not.toBe(first.uiLink);
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(400);
    const restarting = states.find((state) => state.status === 'restarting');
    expect(restarting).toMatchObject({
      status: 'restarting',
      delayMs: 400,
      reason: 'the core was killed by SIGKILL',
    });
    await openUiLink(second.uiLink);
    // The first link's session died with the first core.
    const stale = await fetch(first.uiLink, { redirect: 'manual' });
    expect(stale.status).toBe(403);
  }, 120_000);

  it('stops the core gracefully and does not restart it', async () => {
    const dataDir = tempDataDir();
    const { supervisor, states } = supervise(dataDir);
    const ready = await supervisor.start();
    await supervisor.stop();

    expect(supervisor.current.status).toBe('stopped');
    await waitForExit(ready.pid);
    // serve removes server.json only on its graceful path.
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(states.filter((state) => state.status === 'starting')).toHaveLength(1);
    expect(states.some((state) => state.status === 'restarting')).toBe(false);
  });

  it('gives up with the core’s own message when the core refuses its settings', async () => {
    const dataDir = tempDataDir();
    const { supervisor, states } = supervise(dataDir, { extraArgs: ['--workers', 'lots'] });
    await expect(supervisor.start()).rejects.toThrow(/workers must be a whole number/);
    expect(supervisor.current.status).toBe('failed');
    expect(states.some((state) => state.status === 'restarting')).toBe(false);
  });

  it('retries with a growing delay, then gives up, when the core cannot be started at all', async () => {
    const states: CoreState[] = [];
    const supervisor = new CoreSupervisor({
      launchSpec: () => ({
        command: path.join(os.tmpdir(), 'no-such-node-binary'),
        args: [],
        env: {},
        cwd: os.tmpdir(),
      }),
      backoff: { initialMs: 20, maxMs: 1_000 },
      giveUpAfter: 4,
    });
    cleanups.push(() => supervisor.stop());
    supervisor.onState((state) => states.push(state));
    await expect(supervisor.start()).rejects.toThrow(/could not start the core/);
    const delays = states.flatMap((state) =>
      state.status === 'restarting' ? [state.delayMs] : [],
    );
    expect(delays).toEqual([20, 40, 80]);
    expect(states.filter((state) => state.status === 'starting')).toHaveLength(4);
    expect(states.at(-1)?.status).toBe('failed');
  });

  it('backs off exponentially up to the cap', () => {
    const options = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };
    expect([1, 2, 3, 4, 7, 8, 50].map((n) => backoffDelay(n, options))).toEqual([
      500, 1_000, 2_000, 4_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('has the core shut down gracefully when the shell goes away (its stdin closes)', async () => {
    const dataDir = tempDataDir();
    const spec = developmentSpec(dataDir)(0);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 60_000 }).toMatch(/^UI: /m);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  });
});
