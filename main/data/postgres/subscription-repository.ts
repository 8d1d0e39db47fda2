import type pg from 'pg';
import { Errors } from '../../../shared/errors.js';
import type { AsyncPort } from '../async-port.js';
import type {
  SubscriptionRepository,
  SubscriptionState,
  SubscriptionStatus,
} from '../types/subscription.js';

export type PostgresSubscription = AsyncPort<SubscriptionRepository>;

interface SubscriptionRow {
  status: SubscriptionStatus;
  expires_at: string | null;
}

/** The account's subscription, one row shared by every node. */
export function postgresSubscription(pool: pg.Pool): PostgresSubscription {
  const get = async (now = new Date()): Promise<SubscriptionState> => {
    const result = await pool.query<SubscriptionRow>(
      'SELECT status, expires_at FROM subscription WHERE id = 1',
    );
    const row = result.rows[0] ?? { status: 'active', expires_at: null };
    const expired = row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();
    return { status: expired ? 'lapsed' : row.status, expiresAt: row.expires_at };
  };

  return {
    get,
    async set({ status, expiresAt = null }) {
      if (status !== 'active' && status !== 'lapsed') {
        throw Errors.validation([{ path: 'status', message: "must be 'active' or 'lapsed'" }]);
      }
      let normalised: string | null = null;
      if (expiresAt !== null) {
        const time = Date.parse(expiresAt);
        if (Number.isNaN(time)) {
          throw Errors.validation([{ path: 'expiresAt', message: 'must be an ISO date-time' }]);
        }
        normalised = new Date(time).toISOString();
      }
      await pool.query(
        `INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE
         SET status = excluded.status, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
        [status, normalised, new Date().toISOString()],
      );
      return get();
    },
  };
}
