import type pg from 'pg';
import { isRetryableTransactionError } from './postgres-errors.js';

/** A pool (one statement, its own transaction) or a client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

export interface TransactionOptions {
  /** Attempts after a serialization failure or deadlock; the work must be safe to rerun. */
  retries?: number;
  /** `REPEATABLE READ, READ ONLY` for reads that must see one snapshot. */
  mode?: string;
}

const DEFAULT_RETRIES = 5;

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it
 * throws. A deadlock or serialization failure reruns it from the start (with a short random
 * pause, so the two losers do not collide again), because PostgreSQL has already undone it.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const retries = options.retries ?? DEFAULT_RETRIES;
  for (let attempt = 0; ; attempt += 1) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(options.mode ? `BEGIN ${options.mode}` : 'BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = await rollback(client, error);
      if (attempt < retries && isRetryableTransactionError(error)) {
        await pause(5 + Math.random() * 20 * (attempt + 1));
        continue;
      }
      throw error;
    } finally {
      // A connection whose rollback failed is in an unknown state: destroy it, never reuse it.
      client.release(broken);
    }
  }
}

async function rollback(client: pg.PoolClient, cause: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(cause));
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a single statement (its own transaction), again after a deadlock or serialization
 * failure: PostgreSQL undid it entirely, so running it again is safe.
 */
export async function withRetries<T>(
  statement: () => Promise<T>,
  retries = DEFAULT_RETRIES,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= retries || !isRetryableTransactionError(error)) throw error;
      await pause(5 + Math.random() * 20 * (attempt + 1));
    }
  }
}
