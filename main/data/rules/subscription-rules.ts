import { Errors } from '../../../shared/errors.js';
import type { SubscriptionState, SubscriptionStatus } from '../types/subscription.js';

/** The subscription's rules, the same in both stores: one row, read as its effective state. */

export interface SubscriptionRow {
  status: SubscriptionStatus;
  expires_at: string | null;
}

/** The state as it stands at `now`: an `active` subscription past its expiresAt reads as lapsed. */
export function effectiveSubscription(
  row: SubscriptionRow | undefined,
  now: Date,
): SubscriptionState {
  const stored = row ?? { status: 'active', expires_at: null };
  const expired = stored.expires_at !== null && Date.parse(stored.expires_at) <= now.getTime();
  return { status: expired ? 'lapsed' : stored.status, expiresAt: stored.expires_at };
}

/** The state to store, checked, with expiresAt normalised to ISO UTC (400 when unusable). */
export function checkedSubscription(state: {
  status: SubscriptionStatus;
  expiresAt?: string | null;
}): SubscriptionState {
  const { status, expiresAt = null } = state;
  if (status !== 'active' && status !== 'lapsed') {
    throw Errors.validation([{ path: 'status', message: "must be 'active' or 'lapsed'" }]);
  }
  if (expiresAt === null) return { status, expiresAt: null };
  const time = Date.parse(expiresAt);
  if (Number.isNaN(time)) {
    throw Errors.validation([{ path: 'expiresAt', message: 'must be an ISO date-time' }]);
  }
  return { status, expiresAt: new Date(time).toISOString() };
}
