import {
  checkedSubscription,
  effectiveSubscription,
  type SubscriptionRow,
} from '../data/rules/subscription-rules.js';
import type { SubscriptionRepository } from '../data/types/subscription.js';
import type { Database } from './open-database.js';

export function createSubscriptionRepository(db: Database): SubscriptionRepository {
  const select = db.prepare<[], SubscriptionRow>(
    'SELECT status, expires_at FROM subscription WHERE id = 1',
  );
  const upsert = db.prepare<[string, string | null, string]>(
    `INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE
     SET status = excluded.status, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
  );

  const get: SubscriptionRepository['get'] = (now = new Date()) =>
    effectiveSubscription(select.get(), now);

  return {
    get,
    set(state) {
      const { status, expiresAt } = checkedSubscription(state);
      upsert.run(status, expiresAt, new Date().toISOString());
      return get();
    },
  };
}
