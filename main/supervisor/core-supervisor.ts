import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import readline from 'node:readline';
import type { CoreLaunchSpec } from './core-launch.js';
import { parseCoreLine, redactCoreLine } from './core-output.js';

/**
 * Runs the core as a child process and keeps it running (DESIGN §4a: a native crash in a render
 * worker takes its whole process down; it must not take the window, or the headless server,
 * with it). Both the desktop shell and `npm start`/`npm run serve` (main/start.ts) use it.
 * Written against child_process only, so it is tested under plain Node against the real
 * headless entry (main/serve.ts, compiled).
 *
 * Life of a child: spawn → wait for its `UI:` line (ready) → … → exit. An exit nobody asked for
 * schedules a new child after a backoff that doubles with each failure in a row and starts over
 * once a child has stayed up for a while. Batches resume from SQLite on their own.
 */

export type SpawnLike = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

export interface CoreReady {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** One-time link that opens the UI with a session cookie. */
  uiLink: string;
  pid: number;
}

export type CoreState =
  | { status: 'idle' }
  | { status: 'starting'; attempt: number }
  | ({ status: 'ready' } & CoreReady)
  | { status: 'restarting'; attempt: number; delayMs: number; reason: string }
  /** Will not retry: the core refused its settings (exit code 2), or never got ready `giveUpAfter` times in a row. */
  | { status: 'failed'; reason: string; exitCode?: number }
  | { status: 'stopped' };

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** A child up at least this long resets the backoff. */
  resetAfterMs: number;
}

export interface CoreSupervisorOptions {
  /** The command for a child that should listen on `port` (0: any free port). */
  launchSpec(port: number): CoreLaunchSpec;
  spawn?: SpawnLike;
  backoff?: Partial<BackoffOptions>;
  /** A child that has not printed its UI link by then is killed and counts as a failure. */
  startTimeoutMs?: number;
  /**
   * Children in a row that die before they are ready, after which the supervisor gives up
   * (`failed`): a core that cannot start at all will not start on the ninth try either.
   */
  giveUpAfter?: number;
  /** A stopping child still alive after this is killed. */
  stopTimeoutMs?: number;
  /** The core's output, secrets redacted. */
  log?: (line: string) => void;
  /** The core's output as it is, for a terminal the user reads (the headless server). */
  output?: (line: string, stream: 'stdout' | 'stderr') => void;
  /**
   * Give up at once when the very first child dies before it is ready (the headless server: a
   * port in use is better reported than retried for a minute). Later children are always retried.
   */
  failFastOnFirstStart?: boolean;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };
/** serve.ts exits with 2 on a bad flag or environment value: retrying cannot help. */
const CONFIG_ERROR_EXIT_CODE = 2;

export function backoffDelay(failuresInARow: number, options: BackoffOptions): number {
  const exponent = Math.max(0, failuresInARow - 1);
  return Math.min(options.maxMs, options.initialMs * 2 ** Math.min(exponent, 30));
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  readyAt: number | null;
}

export class CoreSupervisor {
  private readonly spawn: SpawnLike;
  private readonly backoff: BackoffOptions;
  private readonly startTimeoutMs: number;
  private readonly stopTimeoutMs: number;
  private readonly listeners = new Set<(state: CoreState) => void>();
  private state: CoreState = { status: 'idle' };
  private running: Running | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private failuresInARow = 0;
  private startFailuresInARow = 0;
  private attempt = 0;
  /** Whether some child has been ready: until then, failFastOnFirstStart applies. */
  private everReady = false;
  /** Restarts keep the port, so the window's origin (and what the UI stored for it) stays put. */
  private preferredPort = 0;
  private stopping: Promise<void> | null = null;

  constructor(private readonly options: CoreSupervisorOptions) {
    this.spawn = options.spawn ?? (nodeSpawn as SpawnLike);
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.startTimeoutMs = options.startTimeoutMs ?? 90_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  }

  get current(): CoreState {
    return this.state;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onState(listener: (state: CoreState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the first child; resolves when one is ready, rejects if the core cannot start at all. */
  start(): Promise<CoreReady> {
    if (this.state.status !== 'idle') throw new Error('The core supervisor was already started.');
    const ready = this.nextReady();
    this.launch();
    return ready;
  }

  /** Resolves on the next `ready`; rejects on `failed` or `stopped`. */
  nextReady(): Promise<CoreReady> {
    return new Promise((resolve, reject) => {
      const off = this.onState((state) => {
        if (state.status === 'ready') {
          off();
          resolve({ origin: state.origin, port: state.port, uiLink: state.uiLink, pid: state.pid });
        } else if (state.status === 'failed' || state.status === 'stopped') {
          off();
          reject(new Error(state.status === 'failed' ? state.reason : 'The core was stopped.'));
        }
      });
    });
  }

  /** Stops for good: closes the child's stdin and sends SIGTERM, then waits (SIGKILL if it hangs). */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const running = this.running;
    if (running) {
      const { child } = running;
      child.stdin?.end();
      // Windows has no catchable SIGTERM: the core's watchdog stops it when stdin closes.
      if (process.platform !== 'win32') child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), this.stopTimeoutMs);
      await running.exited;
      clearTimeout(timer);
    }
    this.setState({ status: 'stopped' });
  }

  private setState(state: CoreState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener(state);
  }

  private launch(): void {
    this.attempt += 1;
    const attempt = this.attempt;
    this.setState({ status: 'starting', attempt });
    const spec = this.options.launchSpec(this.preferredPort);
    let child: ChildProcess;
    try {
      child = this.spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        // Own process group: Ctrl+C in the terminal reaches the supervising process, which stops
        // the core in order, instead of both racing. (On Windows `detached` would open a console
        // window.)
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      this.childGone(null, `could not start the core: ${(error as Error).message}`, null);
      return;
    }

    let readyTimer: NodeJS.Timeout | null = null;
    let timedOut = false;
    let portInUse = false;
    let settled = false;
    const lastLines: string[] = [];
    const remember = (line: string, stream: 'stdout' | 'stderr') => {
      lastLines.push(line);
      if (lastLines.length > 20) lastLines.shift();
      this.options.log?.(redactCoreLine(line));
      this.options.output?.(line, stream);
    };
    const running: Running = {
      child,
      readyAt: null,
      exited: new Promise<void>((resolve) => {
        const finish = (reason: string, exitCode: number | null) => {
          if (settled) return;
          settled = true;
          if (readyTimer) clearTimeout(readyTimer);
          resolve();
          // Port taken by someone else since the last start: let the next child pick a free one.
          if (portInUse) this.preferredPort = 0;
          const tail = lastLines.filter(Boolean).slice(-5).join('\n');
          this.childGone(running, reason, exitCode, tail);
        };
        // 'close', not 'exit': by then the child's last lines have been read.
        child.once('close', (code, signal) => {
          if (timedOut) {
            finish(
              `the core did not become ready within ${Math.round(this.startTimeoutMs / 1000)} s`,
              null,
            );
          } else if (code === CONFIG_ERROR_EXIT_CODE) {
            // The last words of a child that refused its configuration say why.
            finish(
              lastLines.filter(Boolean).slice(-3).join('\n') || 'the core refused its settings',
              code,
            );
          } else {
            finish(
              signal ? `the core was killed by ${signal}` : `the core exited with code ${code}`,
              code,
            );
          }
        });
        child.once('error', (error) => {
          // A child that never started (no such binary) may never emit 'close'.
          if (child.pid === undefined) finish(`could not start the core: ${error.message}`, null);
        });
      }),
    };
    this.running = running;
    // Writing to stdin of a child that died must not throw here.
    child.stdin?.on('error', () => {});

    const onLine = (line: string) => {
      remember(line, 'stdout');
      const parsed = parseCoreLine(line);
      if (parsed.kind === 'port-in-use') portInUse = true;
      if (parsed.kind !== 'ui-link' || running.readyAt !== null || this.running !== running) return;
      if (this.stopping) return;
      running.readyAt = Date.now();
      this.everReady = true;
      if (readyTimer) clearTimeout(readyTimer);
      this.preferredPort = parsed.port;
      this.setState({
        status: 'ready',
        origin: parsed.origin,
        port: parsed.port,
        uiLink: parsed.link,
        pid: child.pid ?? -1,
      });
    };
    if (child.stdout)
      readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
    if (child.stderr)
      readline
        .createInterface({ input: child.stderr, crlfDelay: Infinity })
        .on('line', (line) => remember(line, 'stderr'));
    readyTimer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, this.startTimeoutMs);
  }

  private childGone(
    running: Running | null,
    reason: string,
    exitCode: number | null,
    tail = '',
  ): void {
    if (running && this.running !== running) return;
    const upFor = running?.readyAt ? Date.now() - running.readyAt : 0;
    this.running = null;
    if (this.stopping) return;
    const failed = (why: string) =>
      this.setState({ status: 'failed', reason: why, ...(exitCode !== null ? { exitCode } : {}) });
    if (exitCode === CONFIG_ERROR_EXIT_CODE) {
      failed(reason);
      return;
    }
    this.startFailuresInARow = running?.readyAt ? 0 : this.startFailuresInARow + 1;
    if (
      this.startFailuresInARow >= (this.options.giveUpAfter ?? 8) ||
      (this.options.failFastOnFirstStart && !this.everReady)
    ) {
      failed(tail ? `${reason}:\n${tail}` : reason);
      return;
    }
    this.failuresInARow = upFor >= this.backoff.resetAfterMs ? 1 : this.failuresInARow + 1;
    const delayMs = backoffDelay(this.failuresInARow, this.backoff);
    this.setState({ status: 'restarting', attempt: this.attempt + 1, delayMs, reason });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.launch();
    }, delayMs);
  }
}
