import type pg from 'pg';

/**
 * Runs `fn` while this session holds the advisory lock `key`, waiting for it if another session
 * holds it. The lock belongs to the connection, so `fn` gets that connection. When anything
 * fails, the connection is closed rather than reused: closing is what surely frees the lock.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // No statement timeout while waiting: the holder may legitimately work for a long time.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    await client.query('RESET statement_timeout');
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
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
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const result = await client.query<{ acquired: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS acquired',
      [key],
    );
    if (!result.rows[0]?.acquired) return { acquired: false };
    try {
      return { acquired: true, value: await fn(client) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}
