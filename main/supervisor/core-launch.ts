import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { coreNodeFlags, coreProcessEnv, launchRole } from '../core-process-env.js';

/** How to start the core: a plain child process running the headless entry (main/serve.ts). */
export interface CoreLaunchSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface CoreLaunchOptions {
  /** The app folder: the repository in development, `resources/app` when packaged. */
  appRoot: string;
  packaged: boolean;
  /**
   * Development only: appRoot is a copy of the core compiled to JavaScript (dist/cli/<build>,
   * bin/compiled-core.mjs), whose entry runs without a TypeScript loader.
   */
  compiled?: boolean;
  /** The Electron binary (packaged: it runs the core as Node with ELECTRON_RUN_AS_NODE). */
  execPath: string;
  /** Development: the Node that ran `npm start` (see below). */
  nodePath: string;
  /** Omitted: the core's own rule (flags in extraArgs, RENDER_DESK_PORT, saved preferences, 5317). */
  port?: number;
  /** Omitted: the core's own rule (RENDER_DESK_DATA_DIR or the OS convention). */
  dataDir?: string;
  /** More core flags (`--workers 1`, flags passed to `npm start`). */
  extraArgs?: readonly string[];
  env: NodeJS.ProcessEnv;
  /**
   * True when a supervisor holds the write end of the core's stdin: the core then loads the
   * watchdog that stops it when that pipe closes. A cluster node started by an orchestrator
   * (systemd, compose, nohup, a CI job) gets stdin closed or at /dev/null: with the watchdog it
   * would stop at once, so it runs without one and stops on SIGTERM.
   */
  supervised: boolean;
}

/**
 * Development runs the TypeScript sources with tsx (or a compiled copy of them, as is) under the
 * Node that ran `npm start`, not under Electron: the native modules in a development checkout
 * are built for that Node's ABI (there is deliberately no postinstall rebuild for Electron,
 * which would break the tests).
 * Packaged builds run the compiled core with Electron's own Node, against native modules that
 * electron-builder rebuilt for Electron's ABI.
 */
export function coreLaunchSpec(options: CoreLaunchOptions): CoreLaunchSpec {
  const env = coreProcessEnv(options.env);
  const flags = options.port !== undefined ? ['--port', String(options.port)] : [];
  if (options.dataDir !== undefined) flags.push('--data-dir', options.dataDir);
  flags.push(...(options.extraArgs ?? []));
  // `npm run serve -- --cluster --role api` starts an API-only node: it gets that role's flags.
  const nodeFlags = coreNodeFlags(launchRole(flags, options.env));

  if (options.packaged) {
    env.ELECTRON_RUN_AS_NODE = '1';
    const watchdog = path.join(options.appRoot, 'dist', 'shell', 'core-watchdog.mjs');
    return {
      command: options.execPath,
      args: [
        ...nodeFlags,
        ...(options.supervised ? ['--import', pathToFileURL(watchdog).href] : []),
        path.join(options.appRoot, 'main', 'serve.js'),
        ...flags,
      ],
      env,
      cwd: options.appRoot,
    };
  }
  // A development shell started by Electron must not hand Electron's run-as-node mode on.
  delete env.ELECTRON_RUN_AS_NODE;
  // A compiled copy holds no .ts files, and its JavaScript needs no loader.
  const extension = options.compiled ? '.js' : '.ts';
  const watchdog = path.join(options.appRoot, 'main', 'supervisor', `core-watchdog${extension}`);
  return {
    command: options.nodePath,
    args: [
      ...nodeFlags,
      ...(options.compiled ? [] : ['--import', 'tsx']),
      ...(options.supervised ? ['--import', pathToFileURL(watchdog).href] : []),
      path.join(options.appRoot, 'main', `serve${extension}`),
      ...flags,
    ],
    env,
    cwd: options.appRoot,
  };
}

/**
 * The Node for a development core: npm tells scripts which Node runs them (`npm start` →
 * start.ts → Electron inherits the environment); otherwise the `node` on PATH.
 */
export function developmentNodePath(env: NodeJS.ProcessEnv): string {
  return env.RENDER_DESK_NODE || env.npm_node_execpath || 'node';
}
