import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreLaunchSpec } from './supervisor/core-launch.js';
import { CoreSupervisor } from './supervisor/core-supervisor.js';
import { watchLauncher } from './supervisor/launcher-watch.js';

/**
 * `npm start`: the desktop window when the Electron binary is installed, otherwise the headless
 * server (the binary cannot always be downloaded, e.g. on offline build machines).
 * `npm run serve` is `start.ts --headless`. Either way the server runs in a child process that
 * starts with the core's environment and flags (core-process-env.ts), under the same supervisor
 * as the desktop shell's: a core that dies is started again, and batches resume.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
// Run from the compiled copy of the core (dist/cli/<build>/main/start.js): the server child runs
// that copy's serve.js too, since the copy has no TypeScript sources for tsx.
const compiled = import.meta.url.endsWith('.js');

function electronBinary(): string | undefined {
  try {
    // The electron package exports the path of its binary and throws if the download failed.
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** `args` without `--name value` / `--name=value`. */
function withoutFlag(args: readonly string[], name: string): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const argument = args[i] ?? '';
    if (argument === `--${name}`) i += 1;
    else if (!argument.startsWith(`--${name}=`)) result.push(argument);
  }
  return result;
}

function runHeadless(forwarded: string[]): void {
  const say = (line: string) => process.stderr.write(`render-desk: ${line}\n`);
  const supervisor = new CoreSupervisor({
    launchSpec: (port) =>
      coreLaunchSpec({
        appRoot: root,
        packaged: false,
        compiled,
        execPath: process.execPath,
        nodePath: process.execPath,
        // The first core follows the flags, the environment and saved preferences; a restarted
        // one keeps its predecessor's port, so clients and server.json stay right.
        extraArgs:
          port === 0 ? forwarded : [...withoutFlag(forwarded, 'port'), '--port', `${port}`],
        env: process.env,
        supervised: true,
      }),
    output: (line, stream) =>
      (stream === 'stdout' ? process.stdout : process.stderr).write(`${line}\n`),
    failFastOnFirstStart: true,
  });
  let restarted = false;
  supervisor.onState((state) => {
    if (state.status === 'restarting') {
      restarted = true;
      say(
        `the server stopped unexpectedly (${state.reason}); starting it again in ${state.delayMs / 1000} s (attempt ${state.attempt}).`,
      );
    } else if (state.status === 'ready' && restarted) {
      say(`the server is running again (pid ${state.pid}); unfinished batches resume.`);
    } else if (state.status === 'failed') {
      // A first start that failed has said why itself (a bad flag, a port in use).
      if (restarted) say(`giving up: ${state.reason}`);
      process.exit(state.exitCode ?? 1);
    }
  });
  const stop = () => {
    void supervisor.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // npm's shell dies on SIGTERM without passing it on: an orphaned start stops as if told to.
  watchLauncher(stop);
  supervisor.start().catch(() => {
    // Reported by the 'failed' state above.
  });
}

/**
 * A cluster node runs without the supervisor: its orchestrator (compose, Kubernetes, systemd)
 * restarts it, and a worker node never prints the UI line the supervisor waits for.
 */
function runClusterNode(forwarded: string[]): void {
  const spec = coreLaunchSpec({
    appRoot: root,
    packaged: false,
    compiled,
    execPath: process.execPath,
    nodePath: process.execPath,
    extraArgs: forwarded,
    env: process.env,
    // No one holds the other end of its stdin: the orchestrator stops it with SIGTERM.
    supervised: false,
  });
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  watchLauncher(() => forward('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 1));
}

function isClusterNode(args: readonly string[]): boolean {
  return (
    args.some((arg) => /^--(cluster|role)(=|$)/.test(arg)) ||
    Boolean(process.env.RENDER_DESK_CLUSTER || process.env.RENDER_DESK_CLUSTER_FILE)
  );
}

const shellEntry = path.join(root, 'main', 'shell', 'electron-main.cjs');
const headless = process.argv[2] === '--headless';
const binary = headless ? undefined : electronBinary();
const forwarded = process.argv.slice(headless ? 3 : 2);

if (headless && isClusterNode(forwarded)) {
  runClusterNode(forwarded);
} else if (binary && fs.existsSync(shellEntry)) {
  const child = spawn(binary, [root, ...forwarded], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!headless)
    console.log(
      binary
        ? 'The desktop shell is not built; starting the headless server instead.'
        : 'Electron is not installed on this machine; starting the headless server instead (open the UI link in a browser).',
    );
  runHeadless(forwarded);
}
