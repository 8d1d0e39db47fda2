import type { PostgresMigration } from '../migrate.js';
import { BATCH_RENDER_COLUMNS, BATCH_SOURCE_COLUMNS } from '../../schema/batch-columns.js';
import { accountTable } from '../../schema/account-table.js';
import { idempotencyKeysTable } from '../../schema/idempotency-keys-table.js';
import { LEDGER_INDEXES } from '../../schema/ledger-indexes.js';
import { subscriptionTable } from '../../schema/subscription-table.js';

/**
 * The cluster's truth, mirroring the SQLite schema (versions 1 to 9) with PostgreSQL types:
 * bigint where sums grow, timestamptz for times, and `json` (not jsonb) for documents, because
 * jsonb reorders object keys and the ports must return records, templates and brands exactly as
 * stored (a record's key order is its column order). Text that is sorted or compared carries
 * COLLATE "C" so lists come out in SQLite's (binary) order whatever the database's locale.
 */
export const initial: PostgresMigration = {
  version: 1,
  name: 'initial',
  async up(client) {
    await client.query(`
      CREATE TABLE settings (
        key text COLLATE "C" PRIMARY KEY,
        value text NOT NULL
      );

      -- Only the SHA-256 of a secret is kept; prefix is its first 12 characters, for display.
      CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'key\\_%'),
        name text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );

      -- Append-only: rows are inserted, never updated or deleted.
      CREATE TABLE ledger (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('grant', 'debit', 'hold', 'release')),
        amount bigint NOT NULL CHECK (amount > 0),
        render_id text,
        batch_id text COLLATE "C",
        row_index integer,
        note text,
        api_key_id text,
        created_at timestamptz NOT NULL
      );
      -- A render is charged at most once, and so is a batch row, whatever retries happen.
      ${LEDGER_INDEXES}

      -- Running totals, updated in the same transaction as each ledger insert, so the balance
      -- check is one conditional UPDATE of this row (atomic across every node).
      ${accountTable({ id: 'smallint', credits: 'bigint' })};
      INSERT INTO account (id, granted, debited, held) VALUES (1, 0, 0, 0);

      -- What each batch holds, kept with every hold and release: summing a big batch's ledger
      -- entries on every committed group would cost more the further the batch gets. Not tied
      -- to batches, like the ledger: a removed batch's entries stay.
      CREATE TABLE batch_holds (
        batch_id text COLLATE "C" PRIMARY KEY,
        held bigint NOT NULL DEFAULT 0 CHECK (held >= 0)
      );

      CREATE TABLE renders (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'rnd\\_%'),
        template_id text NOT NULL,
        ratio text NOT NULL,
        format text NOT NULL,
        api_key_id text,
        batch_id text COLLATE "C",
        row_index integer,
        output_key text,
        bytes bigint NOT NULL CHECK (bytes >= 0),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX renders_by_batch_row ON renders (batch_id, row_index) WHERE batch_id IS NOT NULL;

      -- Scoped per API key (a composite key), so one key string under two API keys is unrelated.
      ${idempotencyKeysTable('timestamptz')};
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);

      CREATE TABLE brand_profiles (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'brand\\_%'),
        name text COLLATE "C" NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        data json NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX brand_profiles_one_default ON brand_profiles (is_default) WHERE is_default;

      ${subscriptionTable({ id: 'smallint', time: 'timestamptz' })};
      INSERT INTO subscription (id, status, expires_at, updated_at) VALUES (1, 'active', NULL, now());

      -- Uploaded spreadsheets, images and image zips; expires_at is cleared once a batch uses one.
      CREATE TABLE uploads (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'upl\\_%'),
        kind text NOT NULL CHECK (kind IN ('csv', 'xlsx', 'image', 'zip')),
        filename text NOT NULL,
        path text NOT NULL,
        bytes bigint NOT NULL CHECK (bytes >= 0),
        content_type text,
        info json NOT NULL DEFAULT '{}',
        api_key_id text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz
      );
      CREATE INDEX uploads_expiry ON uploads (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE batches (
        id text COLLATE "C" PRIMARY KEY CHECK (id LIKE 'bat\\_%'),
        template_id text NOT NULL,
        template_snapshot json NOT NULL,
        template_version integer,
        ${BATCH_RENDER_COLUMNS},
        ${BATCH_SOURCE_COLUMNS},
        bindings json NOT NULL DEFAULT '{}',
        file_name_pattern text,
        images_dir text,
        brand json NOT NULL,
        today text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'partial', 'failed', 'degraded', 'cancelled')),
        total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
        succeeded integer NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
        failed integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
        ingested integer NOT NULL DEFAULT 0,
        ingest_complete boolean NOT NULL DEFAULT false,
        rejected_reason text,
        stopped_reason text,
        api_key_id text,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz
      );
      CREATE INDEX batches_status ON batches (status);
      CREATE INDEX batches_created ON batches (created_at);

      -- Every row has its render id from the moment it is read; a succeeded row's output and
      -- debit carry it. lease_until is epoch milliseconds, as the embedded runner counts them.
      CREATE TABLE batch_rows (
        batch_id text COLLATE "C" NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        row_index integer NOT NULL CHECK (row_index >= 0),
        line integer,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'cancelled')),
        record json NOT NULL,
        render_id text NOT NULL,
        output_key text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        lease_until bigint,
        file_name text,
        PRIMARY KEY (batch_id, row_index),
        CHECK (status <> 'succeeded' OR output_key IS NOT NULL)
      );
      CREATE INDEX batch_rows_by_status ON batch_rows (batch_id, status, row_index);
    `);
  },
};
