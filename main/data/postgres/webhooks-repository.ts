import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import { jsonParsed } from '../rows/json-column.js';
import * as rows from '../rows/webhook-rows.js';
import { PRUNABLE_SQL, takesEvent } from '../rules/webhook-rules.js';
import type { WebhooksRepository } from '../types/webhooks.js';

export type PostgresWebhooks = AsyncPort<WebhooksRepository>;

const WEBHOOK = 'id, url, secret, events, enabled, description, created_at';
const DELIVERY = `d.id, d.webhook_id, w.url, d.event, d.payload, d.status, d.attempts,
  d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.delivered_at`;

/**
 * Outgoing webhooks and their delivery queue in the cluster's PostgreSQL. Every node may queue
 * and send: a delivery is queued once per event key (ON CONFLICT DO NOTHING) and claimed by one
 * node at a time (FOR UPDATE SKIP LOCKED), so it is sent once however many nodes poll.
 */
export function postgresWebhooks(pool: pg.Pool): PostgresWebhooks {
  const get = async (id: string) => {
    const result = await pool.query<rows.WebhookRow>(
      `SELECT ${WEBHOOK} FROM webhooks WHERE id = $1`,
      [id],
    );
    const row = result.rows[0];
    return row ? rows.toWebhook(row, jsonParsed) : null;
  };

  return {
    async create(input) {
      const created = rows.newWebhook(input);
      const { webhook, secret } = created;
      await pool.query(
        `INSERT INTO webhooks (id, url, secret, events, enabled, description, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          webhook.id,
          webhook.url,
          secret,
          JSON.stringify(webhook.events),
          webhook.enabled,
          webhook.description,
          webhook.createdAt,
        ],
      );
      return created;
    },
    async list() {
      const result = await pool.query<rows.WebhookRow>(
        `SELECT ${WEBHOOK} FROM webhooks ORDER BY created_at, id`,
      );
      return result.rows.map((row) => rows.toWebhook(row, jsonParsed));
    },
    get,
    async update(id, patch) {
      const current = await get(id);
      if (!current) return null;
      const next = rows.patchedWebhook(current, patch);
      // A webhook removed meanwhile stays removed.
      const result = await pool.query(
        'UPDATE webhooks SET url = $1, events = $2, description = $3, enabled = $4 WHERE id = $5',
        [next.url, JSON.stringify(next.events), next.description, next.enabled, id],
      );
      return result.rowCount === 1 ? next : null;
    },
    async remove(id) {
      const result = await pool.query('DELETE FROM webhooks WHERE id = $1', [id]);
      return result.rowCount === 1;
    },
    async enqueue(event, eventKey, payload, now = new Date()) {
      const enabled = await pool.query<rows.WebhookRow>(
        `SELECT ${WEBHOOK} FROM webhooks WHERE enabled`,
      );
      const takers = enabled.rows
        .map((row) => rows.toWebhook(row, jsonParsed))
        .filter((webhook) => takesEvent(webhook.events, event));
      if (takers.length === 0) return 0;
      // The join drops a webhook removed since it was read (its deliveries would have no owner).
      const result = await pool.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_key, event, payload, status,
           attempts, next_attempt_at, created_at)
         SELECT t.id, t.webhook_id, $1, $2, $3, 'pending', 0, $4, $5
         FROM unnest($6::text[], $7::text[]) AS t (id, webhook_id)
           JOIN webhooks w ON w.id = t.webhook_id
         ON CONFLICT (webhook_id, event_key) DO NOTHING`,
        [
          eventKey,
          event,
          JSON.stringify(payload),
          now.getTime(),
          now.toISOString(),
          takers.map(() => rows.newDeliveryId()),
          takers.map((webhook) => webhook.id),
        ],
      );
      return result.rowCount ?? 0;
    },
    async claimDue(now, limit, claimUntil, perWebhook = limit) {
      // SKIP LOCKED: a node passes over the rows another is claiming this instant, and a row
      // claimed and committed meanwhile is checked again (no longer due) before it is taken.
      // The candidates are each webhook's oldest due ones, `perWebhook` minus its live claims
      // (any node's), so one receiver's backlog never fills every node's slots. Two nodes that
      // rank at once pick the same candidates, and the second skips what the first took.
      const result = await pool.query<rows.DueDeliveryRow>(
        `UPDATE webhook_deliveries d
           SET status = 'delivering', attempts = d.attempts + 1, next_attempt_at = $3
         FROM webhooks w
         WHERE w.id = d.webhook_id AND d.id IN (
           SELECT id FROM webhook_deliveries
           WHERE status IN ('pending', 'delivering') AND next_attempt_at <= $1 AND id IN (
             SELECT r.id FROM (
               SELECT id, webhook_id, next_attempt_at, seq, row_number() OVER (
                 PARTITION BY webhook_id ORDER BY next_attempt_at, seq) AS place
               FROM webhook_deliveries
               WHERE status IN ('pending', 'delivering') AND next_attempt_at <= $1
             ) r LEFT JOIN (
               SELECT webhook_id, count(*) AS n FROM webhook_deliveries
               WHERE status = 'delivering' AND next_attempt_at > $1 GROUP BY webhook_id
             ) l ON l.webhook_id = r.webhook_id
             WHERE r.place + coalesce(l.n, 0) <= $4
             ORDER BY r.next_attempt_at, r.seq
             LIMIT $2)
           FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.webhook_id, w.url, w.secret, d.event, d.payload::text AS payload,
           d.attempts`,
        [now, limit, claimUntil, perWebhook],
      );
      return result.rows.map(rows.toDueDelivery);
    },
    async delivered(claim, statusCode, now = new Date()) {
      const result = await pool.query(
        `UPDATE webhook_deliveries SET status = 'delivered', last_status_code = $1,
           last_error = NULL, next_attempt_at = NULL, delivered_at = $2
         WHERE id = $3 AND status = 'delivering' AND attempts = $4`,
        rows.deliveredValues(claim, statusCode, now),
      );
      return result.rowCount === 1;
    },
    async attemptFailed(claim, outcome) {
      const result = await pool.query(
        `UPDATE webhook_deliveries SET status = $1, last_status_code = $2, last_error = $3,
           next_attempt_at = $4
         WHERE id = $5 AND status = 'delivering' AND attempts = $6`,
        rows.failedAttemptValues(claim, outcome),
      );
      return result.rowCount === 1;
    },
    async deliveries({ webhookId, limit }) {
      const result = await pool.query<rows.DeliveryRow>(
        `SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         ${webhookId ? 'WHERE d.webhook_id = $2' : ''}
         ORDER BY d.created_at DESC, d.seq DESC LIMIT $1`,
        webhookId ? [limit, webhookId] : [limit],
      );
      return result.rows.map((row) => rows.toDelivery(row, jsonParsed));
    },
    async prune(keep) {
      const result = await pool.query(
        `DELETE FROM webhook_deliveries WHERE status IN (${PRUNABLE_SQL}) AND seq NOT IN
           (SELECT seq FROM webhook_deliveries ORDER BY created_at DESC, seq DESC LIMIT $1)`,
        [keep],
      );
      return result.rowCount ?? 0;
    },
  };
}
