import pg from 'pg';

export interface OpenPostgresOptions {
  /** Connections per process; the render threads, not the database, are the bottleneck. */
  max?: number;
  /** A statement running longer than this is cancelled (ms); a stuck query must not hold locks. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell Render Desk's sessions apart. */
  applicationName?: string;
  /** Where connection problems are reported; the default writes to stderr. */
  log?: (message: string, detail?: unknown) => void;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_APPLICATION_NAME = 'render-desk';

/**
 * Values come back in the shapes the SQLite store returns: bigint columns and counts as numbers
 * (every amount and row count stays far below 2^53), timestamps as ISO strings.
 */
export function postgresTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(`The database returned ${text}, beyond the integers JavaScript holds.`);
    }
    return value;
  });
  const parseTimestamp = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (
    text: string,
  ) => Date;
  types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (text: string) =>
    parseTimestamp(text).toISOString(),
  );
  return types;
}

/** The connection settings every Render Desk session uses, for pools and dedicated clients. */
export function postgresClientConfig(
  url: string,
  options: OpenPostgresOptions = {},
): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: options.applicationName ?? DEFAULT_APPLICATION_NAME,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    // A session left inside a transaction (a crashed request, a frozen process: a paused VM, a
    // SIGSTOP) would block every commit behind it, and a batch delete waiting for its locks
    // would pass its own statement timeout (30 s) and fail. No transaction of ours idles between
    // two statements for seconds: one that does is ended after 15 s, releasing its locks.
    idle_in_transaction_session_timeout: 15_000,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    // No pipelining: with many chunks committing at once in one process, a pipelined
    // connection left a commit unanswered for good (a worker's chunk then hangs while its job
    // lock is renewed). Each query waits for its answer.
    pipeline: false,
    types: postgresTypes(),
  };
}

/**
 * A pool of connections to the cluster's database. A connection that breaks (PostgreSQL
 * restarted, a network blip) emits 'error'; without a listener Node would crash the process, so
 * it is logged and the pool opens a fresh connection on the next query.
 */
export function openPostgres(url: string, options: OpenPostgresOptions = {}): pg.Pool {
  const log = options.log ?? ((message, detail) => console.error(message, detail));
  const pool = new pg.Pool({
    ...postgresClientConfig(url, options),
    max: options.max ?? DEFAULT_POOL_SIZE,
    idleTimeoutMillis: 30_000,
  });
  // pg's pool listens for a connection's 'error' only while the connection is idle, and passes
  // it on as the pool's 'error'. One that breaks while checked out (a transaction between
  // statements, a held advisory lock) would crash the process: every worker node at once when
  // PostgreSQL restarts. So each connection has a listener of its own from the start, which says
  // it once; what ran on the connection fails through its queries, and the pool takes no broken
  // connection back.
  pool.on('error', () => undefined);
  let live = 0;
  pool.on('connect', (client) => {
    live += 1;
    let reported = false;
    client.on('error', (error) => {
      if (reported) return;
      reported = true;
      log('PostgreSQL: a connection failed; it will be replaced.', describe(error));
    });
  });
  pool.on('remove', () => {
    live -= 1;
    if (live === 0) for (const resolve of drained.splice(0)) resolve();
  });
  const drained: (() => void)[] = [];
  connectionsClosed.set(pool, () =>
    live === 0 ? Promise.resolve() : new Promise<void>((resolve) => drained.push(resolve)),
  );
  return pool;
}

const connectionsClosed = new WeakMap<pg.Pool, () => Promise<void>>();
const CLOSE_WAIT_MS = 5_000;

/**
 * Ends the pool and waits until its connections are really closed. pg's `pool.end()` resolves
 * as soon as it has asked each connection to close; a server stopped right after (tests, a node
 * shutting down with its database) would otherwise still find them open and end them with an
 * error.
 */
export async function closePostgres(pool: pg.Pool): Promise<void> {
  await pool.end();
  const closed = connectionsClosed.get(pool);
  if (!closed) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    closed(),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}

function describe(error: Error): { message: string; code?: string } {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? { message: error.message, code } : { message: error.message };
}
