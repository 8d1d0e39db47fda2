import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveClusterConfig, type ClusterConfig } from './cluster/cluster-config.js';

/**
 * The settings every core reads, the server's and a `render-desk` command's alike: the recipe
 * (main/core) builds the services from them.
 */
export interface CoreSettings {
  dataDir: string;
  /** Opening balance of a new data directory. */
  openingCredits: number;
  workers: number;
  /** `lapsed` pauses rendering (403 subscription-lapsed). */
  subscription: 'active' | 'lapsed' | undefined;
  /** How long one render may take before it is stopped (422 render-timeout); default 20 s. */
  renderTimeoutMs?: number;
  /** Settings given by a flag or the environment; the others may come from saved preferences. */
  explicit?: { workers: boolean; port?: boolean };
}

/** Settings of the core (DESIGN §3). Flags win over environment variables. */
export interface CoreConfig extends CoreSettings {
  port: number;
  /** Ensure an admin key with exactly this secret exists (scripts, CI). */
  apiKey: string | undefined;
  /** Requests per minute per key. */
  rateLimit: number;
  /** Cluster mode (PostgreSQL, Redis, an object store); null or absent in embedded mode. */
  cluster?: ClusterConfig | null;
  explicit?: { port: boolean; workers: boolean };
  /** Fastify's request log on stdout (RENDER_DESK_LOG=1). */
  logRequests?: boolean;
}

export const DEFAULT_PORT = 5317;
export const DEFAULT_RATE_LIMIT = 600;
export const DEFAULT_OPENING_CREDITS = 100;
/** ~400 times a normal render, and still short enough for a person to wait for. */
export const DEFAULT_RENDER_TIMEOUT_MS = 20_000;

export class ConfigError extends Error {}

/**
 * The OS convention for per-user application data. An empty or relative base folder in the
 * environment is ignored, as the XDG spec asks: `XDG_DATA_HOME=` must not put the data in
 * `./render-desk` of whatever folder the app was started from.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  const home = os.homedir();
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const absoluteOr = (value: string | undefined, fallback: string) =>
    value && paths.isAbsolute(value) ? value : fallback;
  if (platform === 'win32')
    return paths.join(
      absoluteOr(env.APPDATA, paths.join(home, 'AppData', 'Roaming')),
      'Render Desk',
    );
  if (platform === 'darwin')
    return paths.join(home, 'Library', 'Application Support', 'Render Desk');
  return paths.join(
    absoluteOr(env.XDG_DATA_HOME, paths.join(home, '.local', 'share')),
    'render-desk',
  );
}

function integer(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return n;
}

function renderTimeoutMs(name: string, raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_RENDER_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 600) {
    throw new ConfigError(`${name} must be a number of seconds from 0.1 to 600; got "${raw}".`);
  }
  return Math.round(seconds * 1000);
}

function subscription(name: string, raw: string | undefined): CoreSettings['subscription'] {
  if (raw !== undefined && raw !== 'active' && raw !== 'lapsed') {
    throw new ConfigError(`${name} must be "active" or "lapsed"; got "${raw}".`);
  }
  return raw;
}

/**
 * The settings both kinds of core read, from a flag or else the environment. `names` are what
 * an error calls each setting: the server's flags, or the command line's.
 */
function coreSettings(
  flags: {
    dataDir?: string | undefined;
    credits?: string | undefined;
    workers?: string | undefined;
    subscription?: string | undefined;
    renderTimeout?: string | undefined;
  },
  env: NodeJS.ProcessEnv,
  names: { credits: string; workers: string; subscription: string; renderTimeout: string },
): CoreSettings & { renderTimeoutMs: number } {
  const workers = flags.workers ?? env.RENDER_DESK_WORKERS;
  return {
    dataDir: path.resolve(flags.dataDir ?? env.RENDER_DESK_DATA_DIR ?? defaultDataDir(env)),
    openingCredits: integer(
      names.credits,
      flags.credits ?? env.RENDER_DESK_CREDITS,
      DEFAULT_OPENING_CREDITS,
      0,
      1_000_000_000,
    ),
    workers: integer(names.workers, workers, Math.max(1, os.availableParallelism()), 1, 64),
    subscription: subscription(
      names.subscription,
      flags.subscription ?? env.RENDER_DESK_SUBSCRIPTION,
    ),
    renderTimeoutMs: renderTimeoutMs(
      names.renderTimeout,
      flags.renderTimeout ?? env.RENDER_DESK_RENDER_TIMEOUT,
    ),
    explicit: { workers: workers !== undefined },
  };
}

export function resolveConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): CoreConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      credits: { type: 'string' },
      'rate-limit': { type: 'string' },
      workers: { type: 'string' },
      subscription: { type: 'string' },
      'render-timeout': { type: 'string' },
      cluster: { type: 'string' },
      role: { type: 'string' },
      host: { type: 'string' },
      'allowed-hosts': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = values.port ?? env.RENDER_DESK_PORT;
  const settings = coreSettings(
    {
      dataDir: values['data-dir'],
      credits: values.credits,
      workers: values.workers,
      subscription: values.subscription,
      renderTimeout: values['render-timeout'],
    },
    env,
    {
      credits: 'credits',
      workers: 'workers',
      subscription: 'subscription',
      renderTimeout: 'render-timeout',
    },
  );
  const apiKey = values['api-key'] ?? env.RENDER_DESK_API_KEY;
  if (apiKey !== undefined && (apiKey.length < 16 || apiKey.length > 512 || /\s/.test(apiKey))) {
    throw new ConfigError('RENDER_DESK_API_KEY must be 16–512 characters without spaces.');
  }
  return {
    ...settings,
    port: integer('port', port, DEFAULT_PORT, 0, 65535),
    apiKey: apiKey || undefined,
    rateLimit: integer(
      'rate-limit',
      values['rate-limit'] ?? env.RENDER_DESK_RATE_LIMIT,
      DEFAULT_RATE_LIMIT,
      1,
      1_000_000,
    ),
    cluster: resolveClusterConfig(
      {
        ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
        ...(values.role !== undefined ? { role: values.role } : {}),
        ...(values.host !== undefined ? { host: values.host } : {}),
        ...(values['allowed-hosts'] !== undefined ? { allowedHosts: values['allowed-hosts'] } : {}),
      },
      env,
    ),
    explicit: { port: port !== undefined, workers: settings.explicit?.workers ?? false },
    logRequests: env.RENDER_DESK_LOG === '1',
  };
}

/** A `render-desk` command's settings: the core's, and image URLs on for this one command. */
export interface CommandSettings extends CoreSettings {
  renderTimeoutMs: number;
  /** `--allow-image-urls`: image URLs on for this command, whatever the app's setting says. */
  allowImageUrls?: boolean;
}

/**
 * The settings of a `render-desk` command, read as the server reads its own: the same
 * environment variables (RENDER_DESK_DATA_DIR, _WORKERS, _CREDITS, _SUBSCRIPTION,
 * _RENDER_TIMEOUT), the command's flags first. Workers nobody chose come from the app's saved
 * preferences when the data folder is opened.
 */
export function resolveCommandSettings(
  flags: {
    'data-dir'?: string | undefined;
    workers?: string | undefined;
    'render-timeout'?: string | undefined;
    'allow-image-urls'?: boolean | undefined;
  },
  env: NodeJS.ProcessEnv = process.env,
): CommandSettings {
  return {
    ...coreSettings(
      {
        dataDir: flags['data-dir'],
        workers: flags.workers,
        renderTimeout: flags['render-timeout'],
      },
      env,
      {
        credits: 'RENDER_DESK_CREDITS',
        workers: '--workers',
        subscription: 'RENDER_DESK_SUBSCRIPTION',
        renderTimeout: '--render-timeout',
      },
    ),
    ...(flags['allow-image-urls'] ? { allowImageUrls: true } : {}),
  };
}
