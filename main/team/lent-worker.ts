import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LentWorkerState } from '../../shared/team-service-schemas.js';
import { CORE_NODE_FLAGS, coreProcessEnv } from '../core-process-env.js';
import { backoffDelay } from '../supervisor/core-supervisor.js';
import type { TeamServiceSettings } from './team-service-settings.js';

export interface LentWorkerLaunch {
  command: string;
  args: string[];
  cwd: string;
}

export interface LentWorkerOptions {
  /** The worker's own data folder (its caches): beside the app's, never the app's. */
  dataDir: string;
  /** How to start a core process of this install; the default runs its headless entry. */
  launch?: () => LentWorkerLaunch;
  log?: (line: string) => void;
  backoff?: { initialMs: number; maxMs: number; resetAfterMs: number };
  /** A worker that has not said it started by then is stopped and counts as a failure. */
  startTimeoutMs?: number;
}

/** Variables of the app's own core that must not reach the worker (it has its own settings). */
const NOT_INHERITED = /^(RENDER_DESK_|PG[A-Z]+$)/;
const STARTED = /cluster node (\S+) started as worker/;
const STOP_TIMEOUT_MS = 20_000;
const ERROR_HEAD = /^(?:render-desk: |[A-Za-z]*Error\b|Uncaught )/;

/**
 * This computer's render threads lent to the team service: a cluster worker (`serve --role
 * worker`) run as a child process of the core with the settings saved in Settings → Team
 * service, secrets passed in its environment only. It is restarted after a crash, with a backoff
 * that doubles while it keeps failing; a worker that refuses its settings (exit code 2) is not
 * retried until the settings change. It stops with the core.
 */
export class LentWorker {
  private child: ChildProcess | undefined;
  private state: LentWorkerState = { status: 'off', nodeId: null, detail: null };
  private wanted: { key: string; settings: TeamServiceSettings } | undefined;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private lastError: string | null = null;
  private readonly listeners = new Set<(state: LentWorkerState) => void>();
  private closed = false;

  constructor(private readonly options: LentWorkerOptions) {}

  status(): LentWorkerState {
    return { ...this.state };
  }

  /** Calls `listener` on every change of state; returns the unsubscribe function. */
  onChange(listener: (state: LentWorkerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts, restarts or stops the worker to match `settings`. */
  async apply(settings: TeamServiceSettings): Promise<void> {
    const lend = settings.lend;
    if (this.closed || !lend.enabled || !lend.postgresUrl) {
      this.wanted = undefined;
      await this.stopChild();
      this.set({ status: 'off', nodeId: null, detail: null });
      return;
    }
    const key = JSON.stringify([lend, settings.secrets]);
    if (this.wanted?.key === key && this.state.status !== 'failed') return;
    this.wanted = { key, settings };
    this.failures = 0;
    await this.stopChild();
    this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wanted = undefined;
    await this.stopChild();
    this.set({ status: 'off', nodeId: null, detail: null });
  }

  private start(): void {
    const wanted = this.wanted;
    if (!wanted || this.closed) return;
    const { lend, secrets } = wanted.settings;
    const launch = (this.options.launch ?? defaultLaunch)();
    fs.mkdirSync(this.options.dataDir, { recursive: true });
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env))
      if (!NOT_INHERITED.test(name)) env[name] = value;
    env.RENDER_DESK_CLUSTER = lend.postgresUrl!;
    const secretEnv: Record<string, string | null> = {
      PGPASSWORD: secrets.postgresPassword,
      RENDER_DESK_REDIS_PASSWORD: secrets.redisPassword,
      RENDER_DESK_S3_ACCESS_KEY_ID: secrets.s3AccessKeyId,
      RENDER_DESK_S3_SECRET_ACCESS_KEY: secrets.s3SecretAccessKey,
    };
    for (const [name, value] of Object.entries(secretEnv)) if (value) env[name] = value;

    this.lastError = null;
    this.set({ status: 'starting', nodeId: null, detail: null });
    const child = spawn(
      launch.command,
      [
        ...launch.args,
        '--role',
        'worker',
        '--workers',
        String(lend.workers),
        '--data-dir',
        this.options.dataDir,
      ],
      { cwd: launch.cwd, env: coreProcessEnv(env), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.startedAt = Date.now();
    this.startTimer = setTimeout(() => {
      if (this.child === child && this.state.status === 'starting') {
        this.lastError = 'the worker did not start in time';
        child.kill('SIGKILL');
      }
    }, this.options.startTimeoutMs ?? 60_000);
    this.startTimer.unref();

    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      this.options.log?.(`lent worker: ${line}`);
      const started = STARTED.exec(line);
      if (started && this.child === child) {
        this.set({ status: 'running', nodeId: started[1] ?? null, detail: null });
      }
    });
    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      const clean = withoutSecrets(line, secretEnv, lend.postgresUrl!);
      this.options.log?.(`lent worker: ${clean}`);
      // The head line of an error ("Error: connect ECONNREFUSED …", "render-desk: …"), not
      // its stack, its fields or a runtime warning.
      if (ERROR_HEAD.test(clean)) this.lastError = clean.trim().slice(0, 500);
    });
    child.on('error', (error) => {
      this.lastError = error.message;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(this.startTimer);
      if (this.child !== child) return;
      this.child = undefined;
      if (!this.wanted || this.closed) return;
      const reason =
        this.lastError ?? `the worker stopped (${signal ?? `exit code ${String(code)}`})`;
      if (code === 2) {
        // It refused its settings: retrying cannot help until they change.
        this.set({ status: 'failed', nodeId: null, detail: reason });
        return;
      }
      const backoff = this.options.backoff ?? {
        initialMs: 500,
        maxMs: 30_000,
        resetAfterMs: 60_000,
      };
      if (Date.now() - this.startedAt >= backoff.resetAfterMs) this.failures = 0;
      this.failures += 1;
      const delay = backoffDelay(this.failures, backoff);
      this.set({ status: 'restarting', nodeId: null, detail: reason });
      this.retry = setTimeout(() => this.start(), delay);
      this.retry.unref();
    });
  }

  private async stopChild(): Promise<void> {
    clearTimeout(this.retry);
    clearTimeout(this.startTimer);
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private set(state: LentWorkerState): void {
    this.state = state;
    for (const listener of this.listeners) listener({ ...state });
  }
}

/** This install's headless entry, as the desktop shell starts the core (main/supervisor). */
function defaultLaunch(): LentWorkerLaunch {
  const here = fileURLToPath(import.meta.url);
  const appRoot = path.resolve(path.dirname(here), '..', '..');
  if (here.endsWith('.ts')) {
    const watchdog = path.join(appRoot, 'main', 'supervisor', 'core-watchdog.ts');
    return {
      command: process.execPath,
      args: [
        ...CORE_NODE_FLAGS,
        '--import',
        'tsx',
        '--import',
        pathToFileURL(watchdog).href,
        path.join(appRoot, 'main', 'serve.ts'),
      ],
      cwd: appRoot,
    };
  }
  const watchdog = path.join(appRoot, 'dist', 'shell', 'core-watchdog.mjs');
  return {
    command: process.execPath,
    args: [
      ...CORE_NODE_FLAGS,
      '--import',
      pathToFileURL(watchdog).href,
      path.join(appRoot, 'main', 'serve.js'),
    ],
    cwd: appRoot,
  };
}

/** A line of the worker's output with every secret it was given taken out. */
function withoutSecrets(
  line: string,
  secrets: Record<string, string | null>,
  postgresUrl: string,
): string {
  let clean = line;
  for (const value of Object.values(secrets))
    if (value && value.length >= 4) clean = clean.split(value).join('***');
  try {
    const password = new URL(postgresUrl).password;
    if (password) clean = clean.split(password).join('***');
  } catch {
    // Not a URL: the worker says so itself.
  }
  return clean;
}
