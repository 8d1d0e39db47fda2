import type { Migration } from '../migrate.js';
import { accountTable } from '../../data/schema/account-table.js';
import { idempotencyKeysTable } from '../../data/schema/idempotency-keys-table.js';
import { LEDGER_INDEXES } from '../../data/schema/ledger-indexes.js';

/** Settings, API keys, the credit ledger with its running totals, renders and idempotency keys. */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      -- Only the SHA-256 of a secret is kept; prefix is its first 12 characters, for display.
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY CHECK (id LIKE 'key\\_%' ESCAPE '\\'),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      ) STRICT;

      -- Append-only: rows are inserted, never updated or deleted.
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit', 'hold', 'release')),
        amount INTEGER NOT NULL CHECK (amount > 0),
        render_id TEXT,
        batch_id TEXT,
        row_index INTEGER,
        note TEXT,
        api_key_id TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      -- A render is charged at most once, and so is a batch row, whatever retries happen.
      ${LEDGER_INDEXES}

      -- Running totals, updated in the same transaction as each ledger insert, so the balance
      -- check is one conditional UPDATE instead of a sum over the whole ledger.
      ${accountTable({ id: 'INTEGER', credits: 'INTEGER' })} STRICT;
      INSERT INTO account (id, granted, debited, held) VALUES (1, 0, 0, 0);

      CREATE TABLE renders (
        id TEXT PRIMARY KEY CHECK (id LIKE 'rnd\\_%' ESCAPE '\\'),
        template_id TEXT NOT NULL,
        ratio TEXT NOT NULL,
        format TEXT NOT NULL,
        api_key_id TEXT,
        batch_id TEXT,
        row_index INTEGER,
        output_key TEXT,
        bytes INTEGER NOT NULL CHECK (bytes >= 0),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX renders_by_batch_row ON renders (batch_id, row_index) WHERE batch_id IS NOT NULL;

      -- Scoped per API key (a composite key), so one key string under two API keys is unrelated.
      ${idempotencyKeysTable('TEXT')} STRICT;
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
    `);
  },
};
