import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from '../../../shared/webhook-schemas.js';
import { newId } from '../ids.js';
import {
  afterFailedAttempt,
  keptError,
  newWebhookSecret,
  secretPrefix,
  storedEvents,
} from '../rules/webhook-rules.js';
import type { DeliveryClaim, DueDelivery, FailedAttempt } from '../types/webhooks.js';
import type { JsonColumn } from './json-column.js';

/**
 * A webhooks row, as both stores hold it. `events` is JSON (text in SQLite, parsed by
 * PostgreSQL's driver) and SQLite keeps booleans as 0/1: the mappers take the store's JsonColumn.
 */
export interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  events: unknown;
  enabled: number | boolean;
  description: string;
  created_at: string;
}

/** A webhook_deliveries row with its webhook's URL, as the log reads it. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  url: string;
  event: string;
  payload: unknown;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A claimed delivery with what sending it takes: the payload as text, the webhook's secret. */
export interface DueDeliveryRow {
  id: string;
  webhook_id: string;
  url: string;
  secret: string;
  event: string;
  payload: string;
  attempts: number;
}

/** A new webhook and its secret, before either store writes it. */
export function newWebhook(input: CreateWebhookRequest): {
  webhook: Webhook;
  secret: string;
} {
  const secret = newWebhookSecret();
  return {
    secret,
    webhook: {
      id: newId('whk'),
      url: input.url,
      events: storedEvents(input.events),
      description: input.description,
      enabled: input.enabled,
      secretPrefix: secretPrefix(secret),
      createdAt: new Date().toISOString(),
    },
  };
}

/** The webhook with a PATCH applied: only the fields given change. */
export function patchedWebhook(current: Webhook, patch: UpdateWebhookRequest): Webhook {
  return {
    ...current,
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: storedEvents(patch.events) } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
  };
}

export function toWebhook(row: WebhookRow, json: JsonColumn): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: json(row.events) as WebhookEvent[],
    description: row.description,
    enabled: row.enabled === 1 || row.enabled === true,
    secretPrefix: secretPrefix(row.secret),
    createdAt: row.created_at,
  };
}

export function toDelivery(row: DeliveryRow, json: JsonColumn): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    url: row.url,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    // While claimed, the column holds the claim's expiry: not a retry anyone planned.
    nextAttemptAt:
      row.status === 'pending' && row.next_attempt_at !== null
        ? new Date(row.next_attempt_at).toISOString()
        : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    payload: json(row.payload),
  };
}

export function toDueDelivery(row: DueDeliveryRow): DueDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    url: row.url,
    secret: row.secret,
    event: row.event as WebhookEvent,
    payload: row.payload,
    attempts: row.attempts,
  };
}

/**
 * What a delivered attempt writes, in both stores' statement order: status code, delivered at,
 * then the claim (id, attempts) it must still hold.
 */
export function deliveredValues(
  claim: DeliveryClaim,
  statusCode: number,
  now: Date,
): [number, string, string, number] {
  return [statusCode, now.toISOString(), claim.id, claim.attempts];
}

/**
 * What a failed attempt writes, in both stores' statement order: status, status code, error,
 * next attempt, then the claim (id, attempts) it must still hold.
 */
export function failedAttemptValues(
  claim: DeliveryClaim,
  outcome: FailedAttempt,
): [string, number | null, string, number | null, string, number] {
  return [
    afterFailedAttempt(outcome.nextAttemptAt),
    outcome.statusCode,
    keptError(outcome.error),
    outcome.nextAttemptAt,
    claim.id,
    claim.attempts,
  ];
}

/** A queued delivery's id. */
export function newDeliveryId(): string {
  return newId('whd');
}
