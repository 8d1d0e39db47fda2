import type pg from 'pg';

/**
 * Runs `fn` while this session holds the advisory lock `key`, waiting for it if another session
 * holds it. The lock belongs to the connection, so `fn` gets that connection.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return onOwnConnection(pool, async (client) => {
    // No statement timeout while waiting: the holder may legitimately work for a long time.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    await client.query('RESET statement_timeout');
    return whileLocked(client, key, () => fn(client));
  });
}

/**
 * Runs `fn` only if the advisory lock `key` is free right now; otherwise resolves with
 * `{ acquired: false }` at once (another node is doing this work).
 */
export async function tryWithAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<{ acquired: true; value: T } | { acquired: false }> {
  return onOwnConnection(pool, async (client) => {
    const result = await client.query<{ acquired: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS acquired',
      [key],
    );
    if (!result.rows[0]?.acquired) return { acquired: false };
    return { acquired: true, value: await whileLocked(client, key, () => fn(client)) };
  });
}

/**
 * Runs `fn` on a connection of the pool's. When anything fails, the connection is closed rather
 * than reused: closing is what surely frees the session's locks.
 */
async function onOwnConnection<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await fn(client);
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Runs `fn`, then unlocks `key` whether it succeeded or not. */
async function whileLocked<T>(
  client: pg.PoolClient,
  key: number,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [key]);
  }
}
