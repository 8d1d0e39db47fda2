import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveClusterConfig, type ClusterConfig } from './cluster/cluster-config.js';

/** Settings of the core (DESIGN §3). Flags win over environment variables. */
export interface CoreConfig {
  port: number;
  dataDir: string;
  /** Ensure an admin key with exactly this secret exists (scripts, CI). */
  apiKey: string | undefined;
  /** Opening balance of a new data directory. */
  openingCredits: number;
  /** Requests per minute per key. */
  rateLimit: number;
  workers: number;
  /** `lapsed` pauses rendering (403 subscription-lapsed). */
  subscription: 'active' | 'lapsed' | undefined;
  /** How long one render may take before it is stopped (422 render-timeout); default 20 s. */
  renderTimeoutMs?: number;
  /** Cluster mode (PostgreSQL, Redis, an object store); null or absent in embedded mode. */
  cluster?: ClusterConfig | null;
  /** Settings given by a flag or the environment; the others may come from saved preferences. */
  explicit?: { port: boolean; workers: boolean };
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
  const integer = (
    name: string,
    raw: string | undefined,
    fallback: number,
    min: number,
    max: number,
  ) => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
    }
    return n;
  };
  const renderTimeout = values['render-timeout'] ?? env.RENDER_DESK_RENDER_TIMEOUT;
  let renderTimeoutMs = DEFAULT_RENDER_TIMEOUT_MS;
  if (renderTimeout !== undefined && renderTimeout !== '') {
    const seconds = Number(renderTimeout);
    if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 600) {
      throw new ConfigError(
        `render-timeout must be a number of seconds from 0.1 to 600; got "${renderTimeout}".`,
      );
    }
    renderTimeoutMs = Math.round(seconds * 1000);
  }
  const subscription = values.subscription ?? env.RENDER_DESK_SUBSCRIPTION;
  if (subscription !== undefined && subscription !== 'active' && subscription !== 'lapsed') {
    throw new ConfigError(`subscription must be "active" or "lapsed"; got "${subscription}".`);
  }
  const apiKey = values['api-key'] ?? env.RENDER_DESK_API_KEY;
  if (apiKey !== undefined && (apiKey.length < 16 || apiKey.length > 512 || /\s/.test(apiKey))) {
    throw new ConfigError('RENDER_DESK_API_KEY must be 16–512 characters without spaces.');
  }
  return {
    port: integer('port', values.port ?? env.RENDER_DESK_PORT, DEFAULT_PORT, 0, 65535),
    dataDir: path.resolve(values['data-dir'] ?? env.RENDER_DESK_DATA_DIR ?? defaultDataDir(env)),
    apiKey: apiKey || undefined,
    openingCredits: integer(
      'credits',
      values.credits ?? env.RENDER_DESK_CREDITS,
      DEFAULT_OPENING_CREDITS,
      0,
      1_000_000_000,
    ),
    rateLimit: integer(
      'rate-limit',
      values['rate-limit'] ?? env.RENDER_DESK_RATE_LIMIT,
      DEFAULT_RATE_LIMIT,
      1,
      1_000_000,
    ),
    workers: integer(
      'workers',
      values.workers ?? env.RENDER_DESK_WORKERS,
      Math.max(1, os.availableParallelism()),
      1,
      64,
    ),
    subscription,
    renderTimeoutMs,
    cluster: resolveClusterConfig(
      {
        ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
        ...(values.role !== undefined ? { role: values.role } : {}),
        ...(values.host !== undefined ? { host: values.host } : {}),
        ...(values['allowed-hosts'] !== undefined ? { allowedHosts: values['allowed-hosts'] } : {}),
      },
      env,
    ),
    explicit: {
      port: (values.port ?? env.RENDER_DESK_PORT) !== undefined,
      workers: (values.workers ?? env.RENDER_DESK_WORKERS) !== undefined,
    },
  };
}
