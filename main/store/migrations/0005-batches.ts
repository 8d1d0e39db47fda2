import type { Migration } from '../migrate.js';
import { BATCH_RENDER_COLUMNS, BATCH_SOURCE_COLUMNS } from '../../data/schema/batch-columns.js';

/**
 * Batches and their rows. A batch pins the template it started with (template_snapshot) and the
 * brand profile, so a replay renders the same bytes. Rows are stored as the source is read; each
 * is claimed with a lease, and committed with its output and its debit in one transaction.
 */
export const batches: Migration = {
  version: 5,
  name: 'batches',
  up(db) {
    db.exec(`
      CREATE TABLE batches (
        id TEXT PRIMARY KEY CHECK (id LIKE 'bat\\_%' ESCAPE '\\'),
        template_id TEXT NOT NULL,
        template_snapshot TEXT NOT NULL CHECK (json_valid(template_snapshot)),
        ${BATCH_RENDER_COLUMNS},
        ${BATCH_SOURCE_COLUMNS},
        bindings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(bindings)),
        file_name_pattern TEXT,
        images_dir TEXT,
        brand TEXT NOT NULL CHECK (json_valid(brand)),
        today TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'partial', 'failed', 'degraded', 'cancelled')),
        total INTEGER NOT NULL DEFAULT 0,
        succeeded INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        ingested INTEGER NOT NULL DEFAULT 0,
        ingest_complete INTEGER NOT NULL DEFAULT 0 CHECK (ingest_complete IN (0, 1)),
        rejected_reason TEXT,
        stopped_reason TEXT,
        api_key_id TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX batches_status ON batches (status);
      CREATE INDEX batches_created ON batches (created_at);

      CREATE TABLE batch_rows (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL CHECK (row_index >= 0),
        line INTEGER,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'cancelled')),
        record TEXT NOT NULL CHECK (json_valid(record)),
        render_id TEXT,
        output_key TEXT,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER,
        PRIMARY KEY (batch_id, row_index)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX batch_rows_by_status ON batch_rows (batch_id, status, row_index);
    `);
  },
};
