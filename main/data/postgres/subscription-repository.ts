import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import {
  checkedSubscription,
  effectiveSubscription,
  type SubscriptionRow,
} from '../rules/subscription-rules.js';
import type { SubscriptionRepository, SubscriptionState } from '../types/subscription.js';

export type PostgresSubscription = AsyncPort<SubscriptionRepository>;

/** The account's subscription, one row shared by every node. */
export function postgresSubscription(pool: pg.Pool): PostgresSubscription {
  const get = async (now = new Date()): Promise<SubscriptionState> => {
    const result = await pool.query<SubscriptionRow>(
      'SELECT status, expires_at FROM subscription WHERE id = 1',
    );
    return effectiveSubscription(result.rows[0], now);
  };

  return {
    get,
    async set(state) {
      const { status, expiresAt } = checkedSubscription(state);
      await pool.query(
        `INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE
         SET status = excluded.status, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
        [status, expiresAt, new Date().toISOString()],
      );
      return get();
    },
  };
}
