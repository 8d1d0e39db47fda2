import { randomBytes } from 'node:crypto';
import type { WebhookEvent } from '../../../shared/webhook-schemas.js';

/** The rules of outgoing webhooks, the same in the embedded store and in a cluster's database. */

/** A webhook's signing secret: 192 random bits, shown once (docs/security.md). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** How much of the secret is shown afterwards, so people can tell their webhooks apart. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 12);
}

/** The events as stored: each once, in the order given. */
export function storedEvents(events: readonly WebhookEvent[]): WebhookEvent[] {
  return [...new Set(events)];
}

/** Whether an enabled webhook with these events gets a delivery of `event`. */
export function takesEvent(events: readonly string[], event: WebhookEvent): boolean {
  return events.includes(event);
}

/** A failed attempt's status: pending again when a retry is planned, else given up. */
export function afterFailedAttempt(nextAttemptAt: number | null): 'pending' | 'failed' {
  return nextAttemptAt === null ? 'failed' : 'pending';
}

/** The log keeps a failed attempt's error to this length (a receiver's error page is not ours to keep). */
const ERROR_KEPT = 500;

export function keptError(error: string): string {
  return error.slice(0, ERROR_KEPT);
}

/**
 * Deliveries the log may drop once past its newest entries: the finished ones. Pending and
 * claimed deliveries stay whatever their age: they still have to be sent.
 */
export const PRUNABLE_STATUSES = ['delivered', 'failed'] as const;

/** `PRUNABLE_STATUSES` as an SQL list, for both stores' DELETE. */
export const PRUNABLE_SQL = PRUNABLE_STATUSES.map((status) => `'${status}'`).join(', ');
