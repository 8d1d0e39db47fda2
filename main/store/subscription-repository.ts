import { Errors } from '../../shared/errors.js';
import type {
  SubscriptionRepository,
  SubscriptionState,
  SubscriptionStatus,
} from '../data/types/subscription.js';
import type { Database } from './open-database.js';

interface SubscriptionRow {
  status: SubscriptionStatus;
  expires_at: string | null;
}

export function createSubscriptionRepository(db: Database): SubscriptionRepository {
  const select = db.prepare<[], SubscriptionRow>(
    'SELECT status, expires_at FROM subscription WHERE id = 1',
  );
  const upsert = db.prepare<[string, string | null, string]>(
    `INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE
     SET status = excluded.status, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
  );

  const get = (now = new Date()): SubscriptionState => {
    const row = select.get() ?? { status: 'active', expires_at: null };
    const expired = row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();
    return { status: expired ? 'lapsed' : row.status, expiresAt: row.expires_at };
  };

  return {
    get,
    set({ status, expiresAt = null }) {
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
      upsert.run(status, normalised, new Date().toISOString());
      return get();
    },
  };
}
