import { spawn } from 'node:child_process';
import { coreProcessEnv, hasCoreProcessEnv } from '../main/core-process-env.js';

/**
 * Benches that render in their own process run it as the core runs (core-process-env.ts): when
 * started without that environment, this runs the same script again in a child that has it and
 * returns true, and the caller does nothing more.
 */
export function relaunchWithCoreEnv(): boolean {
  if (hasCoreProcessEnv()) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: coreProcessEnv(),
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 1));
  return true;
}
