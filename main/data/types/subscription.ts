export type SubscriptionStatus = 'active' | 'lapsed';

export interface SubscriptionState {
  status: SubscriptionStatus;
  /** ISO time the subscription ends, or null for no end date. */
  expiresAt: string | null;
}

export interface SubscriptionRepository {
  /** The effective state: an `active` subscription whose expiresAt has passed reads as lapsed. */
  get(now?: Date): SubscriptionState;
  /** Stores the state (expiresAt normalised to ISO UTC) and returns the effective state. */
  set(state: { status: SubscriptionStatus; expiresAt?: string | null }): SubscriptionState;
}
