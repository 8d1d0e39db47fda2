import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { logTail } from './service-dir.js';

export interface ServiceSpawnSpec {
  /** For messages: "PostgreSQL", "Redis", "s3rver". */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** stdout and stderr are appended here, never piped into the test process. */
  logFile: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
}

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Signals after which the process is expected to go on living. */
const NON_TERMINATING = new Set<NodeJS.Signals>(['SIGSTOP', 'SIGCONT', 'SIGTSTP', 'SIGHUP']);

function isGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ESRCH';
}

/**
 * One service process, started in a process group of its own (so a PostgreSQL server and its
 * backends can be stopped together) and stopped by pid. An exit nobody asked for is printed with
 * the log's last lines and kept, so the suite's cleanup can fail on it.
 */
export class ServiceProcess {
  readonly pid: number;
  readonly name: string;
  readonly logFile: string;
  /** Why the process ended when nobody stopped it, with its log tail; null while all is well. */
  unexpectedExit: string | null = null;
  private exit: ServiceExit | null = null;
  private readonly exited: Promise<ServiceExit>;
  private expected = false;
  private ready = false;
  private readonly release: () => void;

  private constructor(spec: ServiceSpawnSpec) {
    this.name = spec.name;
    this.logFile = spec.logFile;
    const log = fs.openSync(spec.logFile, 'a');
    try {
      const child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env ?? { PATH: process.env.PATH },
        stdio: ['ignore', log, log],
        detached: true,
        ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
        ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
      });
      if (child.pid === undefined) {
        throw new Error(`${spec.name} could not be started (${spec.command}).`);
      }
      this.pid = child.pid;
      this.release = () => child.unref();
      this.exited = new Promise((resolve) => {
        const finish = (exit: ServiceExit, why: string) => {
          if (this.exit) return;
          this.exit = exit;
          // Before it is ready, the starter reports the failure (and may retry another port).
          if (!this.expected && this.ready) {
            this.unexpectedExit =
              `${this.name} (pid ${this.pid}) ${why}. Last lines of ${this.logFile}:\n` +
              logTail(this.logFile);
            console.error(this.unexpectedExit);
          }
          resolve(exit);
        };
        child.once('exit', (code, signal) =>
          finish({ code, signal }, `exited unexpectedly (code ${code}, signal ${signal})`),
        );
        child.once('error', (error) =>
          finish({ code: null, signal: null }, `failed: ${error.message}`),
        );
      });
    } finally {
      fs.closeSync(log);
    }
  }

  static start(spec: ServiceSpawnSpec): ServiceProcess {
    return new ServiceProcess(spec);
  }

  /**
   * Lets this process outlive the test process that started it (a service shared by the whole
   * run, stopped by the run's teardown): the test process no longer waits for it.
   */
  outliveStarter(): void {
    this.expected = true;
    this.release();
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** From now on an exit nobody asked for is a failure of the suite. */
  markReady(): void {
    this.ready = true;
  }

  /** The process's own exit, once it has come. */
  exitStatus(): ServiceExit | null {
    return this.exit;
  }

  /** Signals the whole group, as when a machine or container fails: the server and its children. */
  kill(signal: NodeJS.Signals): void {
    if (!NON_TERMINATING.has(signal)) this.expected = true;
    try {
      process.kill(-this.pid, signal);
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }

  /** Resolves true when the process has exited within `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<boolean> {
    if (!this.running) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const result = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  /**
   * Stops the service: `politeSignal` to the process itself (it stops its children), SIGKILL to
   * the group after `timeoutMs`, then waits until no process of the group is left.
   */
  async stop(politeSignal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
    this.expected = true;
    if (this.running) {
      try {
        // A stopped process cannot act on the polite signal.
        process.kill(-this.pid, 'SIGCONT');
        process.kill(this.pid, politeSignal);
      } catch (error) {
        if (!isGone(error)) throw error;
      }
      if (!(await this.waitForExit(timeoutMs))) {
        this.kill('SIGKILL');
        if (!(await this.waitForExit(10_000))) {
          throw new Error(`${this.name} (pid ${this.pid}) survived SIGKILL.`);
        }
      }
    }
    // Children of a killed server (PostgreSQL backends) outlive it unless the group goes too.
    this.kill('SIGKILL');
    await this.waitForGroupGone(10_000);
  }

  /** Synchronous last resort for a test process that is exiting: no waiting possible. */
  killNow(): void {
    this.expected = true;
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private async waitForGroupGone(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        process.kill(-this.pid, 0);
      } catch (error) {
        if (isGone(error)) return;
        throw error;
      }
      if (Date.now() > deadline) {
        throw new Error(`Processes of ${this.name}'s group ${this.pid} are still alive.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Polls `probe` until it answers true; fails early when the process exits, with its log tail. */
export async function waitUntilReady(
  process_: ServiceProcess,
  probe: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!process_.running) {
      const exit = process_.exitStatus();
      throw new Error(
        `${process_.name} exited while starting (code ${exit?.code}, signal ${exit?.signal}). ` +
          `Last lines of ${process_.logFile}:\n${logTail(process_.logFile)}`,
      );
    }
    if (await probe().catch(() => false)) {
      process_.markReady();
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${process_.name} (pid ${process_.pid}) was not ready after ${timeoutMs / 1000} s. ` +
          `Last lines of ${process_.logFile}:\n${logTail(process_.logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
