import { spawn } from 'node:child_process';
import { CORE_NODE_FLAGS, coreProcessEnv, hasCoreProcessEnv } from '../main/core-process-env.js';

/**
 * Runs a bench's `main` in a process that has the core's environment and flags (core-process-env.ts), as
 * the server it measures has: when started without it, the same script runs again in a child
 * that has it. Exits 0 when `main` resolves, 1 when it throws.
 */
export function runBench(main: () => Promise<void>): void {
  if (hasCoreProcessEnv()) {
    main().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
    return;
  }
  const args = [...CORE_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    env: coreProcessEnv(),
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 1));
}
