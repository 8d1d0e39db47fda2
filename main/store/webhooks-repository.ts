import type { Webhook, WebhookEvent } from '../../shared/webhook-schemas.js';
import { jsonText } from '../data/rows/json-column.js';
import * as rows from '../data/rows/webhook-rows.js';
import { PRUNABLE_SQL, takesEvent } from '../data/rules/webhook-rules.js';
import type { DueDelivery, WebhooksRepository } from '../data/types/webhooks.js';
import type { Database } from './open-database.js';

/** The columns a webhook is written with (SQLite: events as JSON text, enabled as 0/1). */
function webhookColumns(webhook: Webhook, secret?: string) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: JSON.stringify(webhook.events),
    enabled: webhook.enabled ? 1 : 0,
    description: webhook.description,
    created_at: webhook.createdAt,
    ...(secret !== undefined ? { secret } : {}),
  };
}

/** Outgoing webhooks and their delivery queue in the data folder's SQLite (embedded mode). */
export function createWebhooksRepository(db: Database): WebhooksRepository {
  const insert = db.prepare(
    `INSERT INTO webhooks (id, url, secret, events, enabled, description, created_at)
     VALUES (@id, @url, @secret, @events, @enabled, @description, @created_at)`,
  );
  const change = db.prepare(
    `UPDATE webhooks SET url = @url, events = @events, description = @description,
       enabled = @enabled WHERE id = @id`,
  );
  const byId = db.prepare<[string], rows.WebhookRow>('SELECT * FROM webhooks WHERE id = ?');
  const all = db.prepare<[], rows.WebhookRow>('SELECT * FROM webhooks ORDER BY created_at, id');
  const enabledRows = db.prepare<[], rows.WebhookRow>('SELECT * FROM webhooks WHERE enabled = 1');
  const del = db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?');
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status, attempts,
       next_attempt_at, created_at)
     VALUES (@id, @webhook_id, @event_key, @event, @payload, 'pending', 0, @next, @created_at)
     ON CONFLICT (webhook_id, event_key) DO NOTHING`,
  );
  // A claim is `delivering` with next_attempt_at as its expiry: past it, the claim is taken again.
  // Each webhook's due deliveries are ranked oldest first and only the first `per` minus its
  // live claims are taken, so one receiver's backlog never fills every sender's slots.
  const due = db.prepare<[{ now: number; limit: number; per: number }], rows.DueDeliveryRow>(
    `WITH live AS (
       SELECT webhook_id, count(*) AS n FROM webhook_deliveries
       WHERE status = 'delivering' AND next_attempt_at > @now GROUP BY webhook_id
     ), ranked AS (
       SELECT rowid AS seq, webhook_id, next_attempt_at,
         row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, rowid) AS place
       FROM webhook_deliveries
       WHERE status IN ('pending', 'delivering') AND next_attempt_at <= @now
     )
     SELECT d.id, d.webhook_id, w.url, w.secret, d.event, d.payload, d.attempts
     FROM ranked r
       JOIN webhook_deliveries d ON d.rowid = r.seq
       JOIN webhooks w ON w.id = r.webhook_id
       LEFT JOIN live l ON l.webhook_id = r.webhook_id
     WHERE r.place + coalesce(l.n, 0) <= @per
     ORDER BY r.next_attempt_at, r.seq LIMIT @limit`,
  );
  const markDelivering = db.prepare<[number, string]>(
    `UPDATE webhook_deliveries SET status = 'delivering', attempts = attempts + 1,
       next_attempt_at = ? WHERE id = ?`,
  );
  const markDelivered = db.prepare<[number, string, string, number]>(
    `UPDATE webhook_deliveries SET status = 'delivered', last_status_code = ?, last_error = NULL,
       next_attempt_at = NULL, delivered_at = ?
     WHERE id = ? AND status = 'delivering' AND attempts = ?`,
  );
  const markFailed = db.prepare<[string, number | null, string, number | null, string, number]>(
    `UPDATE webhook_deliveries SET status = ?, last_status_code = ?, last_error = ?,
       next_attempt_at = ?
     WHERE id = ? AND status = 'delivering' AND attempts = ?`,
  );
  const listAll = db.prepare<[number], rows.DeliveryRow>(
    `SELECT d.*, w.url AS url FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
  );
  const listFor = db.prepare<[string, number], rows.DeliveryRow>(
    `SELECT d.*, w.url AS url FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.webhook_id = ? ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
  );
  const pruneOld = db.prepare<[number]>(
    `DELETE FROM webhook_deliveries WHERE status IN (${PRUNABLE_SQL}) AND rowid NOT IN
       (SELECT rowid FROM webhook_deliveries ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
  );

  const claim = db.transaction(
    (now: number, limit: number, claimUntil: number, per: number): DueDelivery[] =>
      due.all({ now, limit, per }).map((row) => {
        markDelivering.run(claimUntil, row.id);
        return rows.toDueDelivery({ ...row, attempts: row.attempts + 1 });
      }),
  );

  const enqueue = db.transaction(
    (event: WebhookEvent, eventKey: string, payload: unknown, now: Date): number => {
      let queued = 0;
      for (const row of enabledRows.all()) {
        if (!takesEvent(rows.toWebhook(row, jsonText).events, event)) continue;
        queued += insertDelivery.run({
          id: rows.newDeliveryId(),
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

  const get = (id: string): Webhook | null => {
    const row = byId.get(id);
    return row ? rows.toWebhook(row, jsonText) : null;
  };

  return {
    create(input) {
      const created = rows.newWebhook(input);
      insert.run(webhookColumns(created.webhook, created.secret));
      return created;
    },
    list: () => all.all().map((row) => rows.toWebhook(row, jsonText)),
    get,
    update(id, patch) {
      const current = get(id);
      if (!current) return null;
      const next = rows.patchedWebhook(current, patch);
      change.run(webhookColumns(next));
      return next;
    },
    remove: (id) => del.run(id).changes === 1,
    enqueue: (event, eventKey, payload, now = new Date()) =>
      enqueue.immediate(event, eventKey, payload, now),
    claimDue: (now, limit, claimUntil, perWebhook = limit) =>
      claim.immediate(now, limit, claimUntil, perWebhook),
    delivered: (claimed, statusCode, now = new Date()) =>
      markDelivered.run(...rows.deliveredValues(claimed, statusCode, now)).changes === 1,
    attemptFailed: (claimed, outcome) =>
      markFailed.run(...rows.failedAttemptValues(claimed, outcome)).changes === 1,
    deliveries: ({ webhookId, limit }) =>
      (webhookId ? listFor.all(webhookId, limit) : listAll.all(limit)).map((row) =>
        rows.toDelivery(row, jsonText),
      ),
    prune: (keep) => pruneOld.run(keep).changes,
  };
}
