import { sqlMigration } from '../migrate.js';

/**
 * Outgoing webhooks and their delivery queue (SQLite version 14), shared by every node: any node
 * queues the events of the batches it changes, and any node sends what is due. One row per
 * (webhook, event key), so an event queued by two nodes is delivered once. A delivery being sent
 * is `delivering`, with next_attempt_at as its claim's expiry: a node that dies mid-send gives
 * it up when the claim expires. seq orders the log as SQLite's rowid does.
 */
export const webhooks = sqlMigration(
  12,
  'webhooks',
  `
      CREATE TABLE webhooks (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'whk\\_%'),
        url text NOT NULL,
        secret text NOT NULL,
        events json NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'whd\\_%'),
        webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_key text COLLATE "C" NOT NULL,
        event text NOT NULL,
        payload json NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at bigint,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz,
        UNIQUE (webhook_id, event_key)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
        WHERE status IN ('pending', 'delivering');
      CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at, seq);
    `,
);
