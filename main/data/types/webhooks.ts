import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from '../../../shared/webhook-schemas.js';

/** A delivery as the dispatcher sends it, claimed for it alone until its claim expires. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  event: WebhookEvent;
  /** The JSON body, exactly as queued (the signature covers these bytes). */
  payload: string;
  /** Attempts so far, this one included: it also names the claim (see DeliveryClaim). */
  attempts: number;
}

/**
 * Which claim an outcome belongs to. A claim that expired may have been taken again by another
 * sender; the late outcome of the first is then ignored rather than written over the second's.
 */
export type DeliveryClaim = Pick<DueDelivery, 'id' | 'attempts'>;

export interface FailedAttempt {
  /** The HTTP status of the answer, or null when there was none. */
  statusCode: number | null;
  error: string;
  /** When to try again (ms since the epoch), or null to give up (status failed). */
  nextAttemptAt: number | null;
}

/**
 * Outgoing webhooks and their delivery queue, in the same store as the rest of the data: the
 * data folder's SQLite (embedded mode) or the cluster's PostgreSQL. Written in the synchronous
 * form SQLite implements; services use its AsyncPort.
 */
export interface WebhooksRepository {
  /** Adds a webhook; its signing secret is returned here, and shown only once. */
  create(input: CreateWebhookRequest): { webhook: Webhook; secret: string };
  list(): Webhook[];
  get(id: string): Webhook | null;
  update(id: string, patch: UpdateWebhookRequest): Webhook | null;
  /** Removes a webhook and its delivery log. */
  remove(id: string): boolean;
  /**
   * Queues `event` for every enabled webhook that takes it; `eventKey` names the event once
   * (`batch.finished:bat_…:<finishedAt>`), so an event queued twice, by one process or by two
   * nodes, is delivered once. Answers how many deliveries were queued by this call.
   */
  enqueue(event: WebhookEvent, eventKey: string, payload: unknown, now?: Date): number;
  /**
   * Claims up to `limit` deliveries due by `now` (ms), oldest first, until `claimUntil` (ms):
   * pending ones whose retry is due, and claimed ones whose claim expired (their sender died).
   * A delivery is claimed by one caller only, however many claim at once. At most `perWebhook`
   * deliveries of one webhook are claimed at a time, counting the live claims of every sender
   * (default `limit`): a receiver that hangs holds that many, and the rest go to the others.
   */
  claimDue(now: number, limit: number, claimUntil: number, perWebhook?: number): DueDelivery[];
  /** The claimed attempt was answered with a 2xx. False when the claim was no longer held. */
  delivered(claim: DeliveryClaim, statusCode: number, now?: Date): boolean;
  /** The claimed attempt failed: retried at `nextAttemptAt`, or given up when null. */
  attemptFailed(claim: DeliveryClaim, outcome: FailedAttempt): boolean;
  /** The delivery log, newest first. */
  deliveries(options: { webhookId?: string; limit: number }): WebhookDelivery[];
  /** Keeps the log bounded: delivered and failed deliveries past the newest `keep` go. */
  prune(keep: number): number;
}
