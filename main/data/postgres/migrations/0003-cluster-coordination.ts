import type { PostgresMigration } from '../migrate.js';

/**
 * The cluster's own bookkeeping beside the core's tables: chunk dispatch state, live nodes,
 * ingest leases and tombstones of deleted batches (outputs are removed only after a grace period
 * longer than a chunk's lock, and swept twice, so a worker paused mid-chunk leaves no orphan).
 */
export const clusterCoordination: PostgresMigration = {
  version: 3,
  name: 'cluster-coordination',
  async up(client) {
    await client.query(`
  CREATE TABLE batch_chunks (
    batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    n INTEGER NOT NULL CHECK (n >= 0),
    from_row INTEGER NOT NULL CHECK (from_row >= 0),
    to_row INTEGER NOT NULL CHECK (to_row > from_row),
    state TEXT NOT NULL CHECK (state IN ('waiting', 'queued', 'done')),
    dispatches INTEGER NOT NULL DEFAULT 0,
    queued_at TIMESTAMPTZ,
    PRIMARY KEY (batch_id, n)
  );
  CREATE INDEX batch_chunks_open ON batch_chunks (batch_id, state, n) WHERE state <> 'done';

  CREATE TABLE batch_ingest (
    batch_id TEXT PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
    chunk_size INTEGER NOT NULL CHECK (chunk_size > 0),
    owner TEXT,
    lease_until TIMESTAMPTZ
  );

  CREATE TABLE cluster_nodes (
    id TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('api', 'worker', 'all')),
    threads INTEGER NOT NULL CHECK (threads >= 0),
    host TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    last_seen TIMESTAMPTZ NOT NULL
  );

  -- Outputs of a deleted batch are removed only after a grace period longer than a chunk's
  -- lock, and swept twice, so a worker that was paused mid-chunk cannot leave an orphan.
  CREATE TABLE deleted_batches (
    batch_id TEXT PRIMARY KEY,
    deleted_at TIMESTAMPTZ NOT NULL,
    swept_at TIMESTAMPTZ
  );
`);
  },
};
