import crypto from 'node:crypto';
import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from '../../shared/webhook-schemas.js';
import type { Database } from './open-database.js';

interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  events: string;
  enabled: number;
  description: string;
  created_at: string;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  url: string;
  event: string;
  event_key: string;
  payload: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A delivery as the dispatcher sends it. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  event: WebhookEvent;
  payload: string;
  attempts: number;
}

export interface WebhooksRepository {
  create(input: CreateWebhookRequest): { webhook: Webhook; secret: string };
  list(): Webhook[];
  get(id: string): Webhook | null;
  update(id: string, patch: UpdateWebhookRequest): Webhook | null;
  remove(id: string): boolean;
  /**
   * Queues `event` for every enabled webhook that takes it; `eventKey` names the event once
   * (`batch.finished:bat_…:<finishedAt>`), so an event queued twice is delivered once.
   */
  enqueue(event: WebhookEvent, eventKey: string, payload: unknown, now?: Date): number;
  /** Claims deliveries due by `now` (pending → delivering). */
  claimDue(now: number, limit: number): DueDelivery[];
  delivered(id: string, statusCode: number, now?: Date): void;
  /** A failed attempt: retried at `nextAttemptAt`, or given up (status failed) when null. */
  attemptFailed(
    id: string,
    outcome: { statusCode: number | null; error: string; nextAttemptAt: number | null },
  ): void;
  /** Deliveries a stopped process left `delivering` go back to the queue. */
  requeueInterrupted(now: number): number;
  deliveries(options: { webhookId?: string; limit: number }): WebhookDelivery[];
  /** Keeps the log bounded: delivered and failed deliveries past the newest `keep` go. */
  prune(keep: number): number;
}

function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    description: row.description,
    enabled: row.enabled === 1,
    secretPrefix: row.secret.slice(0, 12),
    createdAt: row.created_at,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    url: row.url,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt:
      row.status === 'pending' && row.next_attempt_at !== null
        ? new Date(row.next_attempt_at).toISOString()
        : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    payload: JSON.parse(row.payload) as unknown,
  };
}

export function createWebhooksRepository(db: Database): WebhooksRepository {
  const insert = db.prepare(
    `INSERT INTO webhooks (id, url, secret, events, enabled, description, created_at)
     VALUES (@id, @url, @secret, @events, @enabled, @description, @created_at)`,
  );
  const byId = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?');
  const all = db.prepare<[], WebhookRow>('SELECT * FROM webhooks ORDER BY created_at, id');
  const enabledRows = db.prepare<[], WebhookRow>('SELECT * FROM webhooks WHERE enabled = 1');
  const del = db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?');
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status, attempts,
       next_attempt_at, created_at)
     VALUES (@id, @webhook_id, @event_key, @event, @payload, 'pending', 0, @next, @created_at)
     ON CONFLICT (webhook_id, event_key) DO NOTHING`,
  );
  const due = db.prepare<[number, number], DeliveryRow & { secret: string }>(
    `SELECT d.*, w.url AS url, w.secret AS secret FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= ?
     ORDER BY d.next_attempt_at LIMIT ?`,
  );
  const markDelivering = db.prepare<[string]>(
    `UPDATE webhook_deliveries SET status = 'delivering', attempts = attempts + 1 WHERE id = ?`,
  );
  const markDelivered = db.prepare<[number, string, string]>(
    `UPDATE webhook_deliveries SET status = 'delivered', last_status_code = ?, last_error = NULL,
       next_attempt_at = NULL, delivered_at = ? WHERE id = ?`,
  );
  const markFailed = db.prepare<[string, number | null, string, number | null, string]>(
    `UPDATE webhook_deliveries SET status = ?, last_status_code = ?, last_error = ?,
       next_attempt_at = ? WHERE id = ?`,
  );
  const requeue = db.prepare<[number]>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?
     WHERE status = 'delivering'`,
  );
  const listAll = db.prepare<[number], DeliveryRow>(
    `SELECT d.*, w.url AS url FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
  );
  const listFor = db.prepare<[string, number], DeliveryRow>(
    `SELECT d.*, w.url AS url FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.webhook_id = ? ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
  );
  const pruneOld = db.prepare<[number]>(
    `DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND rowid NOT IN
       (SELECT rowid FROM webhook_deliveries ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
  );

  const claim = db.transaction((now: number, limit: number): DueDelivery[] => {
    const rows = due.all(now, limit);
    for (const row of rows) markDelivering.run(row.id);
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      url: row.url,
      secret: row.secret,
      event: row.event as WebhookEvent,
      payload: row.payload,
      attempts: row.attempts + 1,
    }));
  });

  const enqueue = db.transaction(
    (event: WebhookEvent, eventKey: string, payload: unknown, now: Date): number => {
      let queued = 0;
      for (const row of enabledRows.all()) {
        if (!(JSON.parse(row.events) as string[]).includes(event)) continue;
        queued += insertDelivery.run({
          id: newId('whd'),
          webhook_id: row.id,
          event_key: eventKey,
          event,
          payload: JSON.stringify(payload),
          next: now.getTime(),
          created_at: now.toISOString(),
        }).changes;
      }
      return queued;
    },
  );

  return {
    create(input) {
      const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
      const row: WebhookRow = {
        id: newId('whk'),
        url: input.url,
        secret,
        events: JSON.stringify([...new Set(input.events)]),
        enabled: input.enabled ? 1 : 0,
        description: input.description,
        created_at: new Date().toISOString(),
      };
      insert.run(row);
      return { webhook: toWebhook(row), secret };
    },
    list: () => all.all().map(toWebhook),
    get: (id) => {
      const row = byId.get(id);
      return row ? toWebhook(row) : null;
    },
    update(id, patch) {
      const row = byId.get(id);
      if (!row) return null;
      const next: WebhookRow = {
        ...row,
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined
          ? { events: JSON.stringify([...new Set(patch.events)]) }
          : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
      };
      db.prepare(
        `UPDATE webhooks SET url = @url, events = @events, description = @description,
           enabled = @enabled WHERE id = @id`,
      ).run(next);
      return toWebhook(next);
    },
    remove: (id) => del.run(id).changes === 1,
    enqueue: (event, eventKey, payload, now = new Date()) =>
      enqueue.immediate(event, eventKey, payload, now),
    claimDue: (now, limit) => claim.immediate(now, limit),
    delivered(id, statusCode, now = new Date()) {
      markDelivered.run(statusCode, now.toISOString(), id);
    },
    attemptFailed(id, outcome) {
      markFailed.run(
        outcome.nextAttemptAt === null ? 'failed' : 'pending',
        outcome.statusCode,
        outcome.error.slice(0, 500),
        outcome.nextAttemptAt,
        id,
      );
    },
    requeueInterrupted: (now) => requeue.run(now).changes,
    deliveries: ({ webhookId, limit }) =>
      (webhookId ? listFor.all(webhookId, limit) : listAll.all(limit)).map(toDelivery),
    prune: (keep) => pruneOld.run(keep).changes,
  };
}
