import type { Migration } from '../migrate.js';

/**
 * Outgoing webhooks and their delivery queue. Deliveries are kept here, not in memory, so a
 * retry planned before a restart still happens after it; one row per (webhook, event), so an
 * event noticed twice is delivered once.
 */
export const webhooks: Migration = {
  version: 14,
  name: 'webhooks',
  up(db) {
    db.exec(`
      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        secret TEXT NOT NULL,
        events TEXT NOT NULL CHECK (json_valid(events)),
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        description TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_key TEXT NOT NULL,
        event TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        last_status_code INTEGER,
        last_error TEXT,
        created_at TEXT NOT NULL,
        delivered_at TEXT,
        UNIQUE (webhook_id, event_key)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
      CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
    `);
  },
};
