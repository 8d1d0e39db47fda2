import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_NODE_FLAGS, coreProcessEnv } from './core-process-env.js';

/**
 * `npm start`: the desktop window when the Electron binary is installed, otherwise the headless
 * server (the binary cannot always be downloaded, e.g. on offline build machines).
 * `npm run serve` is `start.ts --headless`: the server in a child process either way, so that it
 * starts with the core's environment and flags (core-process-env.ts).
 */
const root = fileURLToPath(new URL('..', import.meta.url));

function electronBinary(): string | undefined {
  try {
    // The electron package exports the path of its binary and throws if the download failed.
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const shellEntry = path.join(root, 'main', 'shell', 'electron-main.cjs');
const headless = process.argv[2] === '--headless';
const binary = headless ? undefined : electronBinary();
const forwarded = process.argv.slice(headless ? 3 : 2);

if (binary && fs.existsSync(shellEntry)) {
  const child = spawn(binary, [root, ...forwarded], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!headless)
    console.log(
      binary
        ? 'The desktop shell is not built; starting the headless server instead.'
        : 'Electron is not installed on this machine; starting the headless server instead (open the UI link in a browser).',
    );
  const child = spawn(
    process.execPath,
    [...CORE_NODE_FLAGS, '--import', 'tsx', path.join(root, 'main', 'serve.ts'), ...forwarded],
    { stdio: 'inherit', env: coreProcessEnv() },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
