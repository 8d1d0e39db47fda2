import fs from 'node:fs';
import { afterAll } from 'vitest';
import type { ServiceProcess } from './service-process.js';

const liveScopes = new Set<ServiceScope>();
let exitHookInstalled = false;

/**
 * Everything a test file started: processes and their folders. stopAll() stops each process by
 * pid and removes the folders, and fails if a service died without being asked to. Should the
 * test process exit without cleanup, the processes are killed on the way out all the same.
 */
export class ServiceScope {
  private readonly processes: { process: ServiceProcess; politeSignal: NodeJS.Signals }[] = [];
  private readonly dirs: string[] = [];

  /**
   * `outlivesFile`: the services are the run's (shared-services.ts): they are not killed when
   * this test process exits, and the run's teardown stops them by the pids `entries()` lists.
   */
  constructor(private readonly options: { outlivesFile?: boolean } = {}) {
    if (options.outlivesFile) return;
    liveScopes.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => {
        for (const scope of liveScopes) scope.killNow();
      });
    }
  }

  track(process_: ServiceProcess, politeSignal: NodeJS.Signals = 'SIGTERM'): ServiceProcess {
    this.processes.push({ process: process_, politeSignal });
    if (this.options.outlivesFile) process_.outliveStarter();
    return process_;
  }

  /** What stopping this scope means: each process with its polite signal, and the folders. */
  entries(): { pids: { pid: number; politeSignal: NodeJS.Signals }[]; dirs: string[] } {
    return {
      pids: this.processes.map(({ process: p, politeSignal }) => ({ pid: p.pid, politeSignal })),
      dirs: [...this.dirs],
    };
  }

  trackDir(dir: string): string {
    this.dirs.push(dir);
    return dir;
  }

  async stopAll(): Promise<void> {
    const problems: string[] = [];
    for (const { process: service, politeSignal } of [...this.processes].reverse()) {
      await service.stop(politeSignal).catch((error: Error) => problems.push(error.message));
      if (service.unexpectedExit) problems.push(service.unexpectedExit);
    }
    this.processes.length = 0;
    for (const dir of this.dirs.splice(0)) {
      await fs.promises
        .rm(dir, { recursive: true, force: true, maxRetries: 3 })
        .catch((error: Error) => problems.push(`${dir} was not removed: ${error.message}`));
    }
    liveScopes.delete(this);
    if (problems.length > 0) throw new Error(problems.join('\n\n'));
  }

  private killNow(): void {
    for (const { process: service } of this.processes) service.killNow();
    for (const dir of this.dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A scope whose services are stopped after the file's tests, whether they passed or not. */
export function useServiceScope(): ServiceScope {
  const scope = new ServiceScope();
  afterAll(() => scope.stopAll(), 120_000);
  return scope;
}
