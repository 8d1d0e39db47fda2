import type { Pool } from 'pg';
import { chunkSize, chunkWindow, planChunks, type ChunkRange } from './chunk-plan.js';

export interface ChunkDispatch extends ChunkRange {
  batchId: string;
  /** Which dispatch of the chunk this is (1 the first time); part of the BullMQ job id. */
  dispatch: number;
}

export type NodeRole = 'api' | 'worker' | 'all';

/** How long a node counts as live after its last heartbeat. */
const NODE_TTL_SECONDS = 30;

/**
 * Cluster bookkeeping in PostgreSQL: chunk dispatch state, live nodes, ingest leases and
 * tombstones. Each method is one statement or one short transaction; the money (rows, holds,
 * debits) is DataCommands', never here.
 */
export class Coordination {
  constructor(private readonly pool: Pool) {}

  async heartbeat(node: {
    id: string;
    role: NodeRole;
    threads: number;
    host: string;
  }): Promise<void> {
    await this.pool.query(
      `INSERT INTO cluster_nodes (id, role, threads, host, started_at, last_seen)
       VALUES ($1, $2, $3, $4, now(), now())
       ON CONFLICT (id) DO UPDATE SET last_seen = now(), threads = EXCLUDED.threads`,
      [node.id, node.role, node.threads, node.host],
    );
  }

  async leave(nodeId: string): Promise<void> {
    await this.pool.query('DELETE FROM cluster_nodes WHERE id = $1', [nodeId]);
  }

  private threadsSeen: { value: number; at: number } | null = null;

  /**
   * Render threads of live worker nodes (at least 1, so a batch can be planned before any
   * starts). Read at most once a second: every finished chunk asks, to size its batch's window.
   */
  async liveThreads(): Promise<number> {
    const seen = this.threadsSeen;
    if (seen && Date.now() - seen.at < 1000) return seen.value;
    const value = await this.countLiveThreads();
    this.threadsSeen = { value, at: Date.now() };
    return value;
  }

  private async countLiveThreads(): Promise<number> {
    const { rows } = await this.pool.query<{ threads: string | null }>(
      `SELECT SUM(threads) AS threads FROM cluster_nodes
       WHERE role IN ('worker', 'all') AND last_seen > now() - make_interval(secs => $1)`,
      [NODE_TTL_SECONDS],
    );
    return Math.max(1, Number(rows[0]?.threads ?? 0));
  }

  async liveNodes(): Promise<{ id: string; role: NodeRole; threads: number; host: string }[]> {
    const { rows } = await this.pool.query<{
      id: string;
      role: NodeRole;
      threads: number;
      host: string;
    }>(
      `SELECT id, role, threads, host FROM cluster_nodes
       WHERE last_seen > now() - make_interval(secs => $1) ORDER BY id`,
      [NODE_TTL_SECONDS],
    );
    return rows;
  }

  /**
   * Cuts a new batch into chunks, sized for the threads live now; a batch of some rows of its
   * sheet, by those rows' own indexes.
   */
  async planBatch(
    batchId: string,
    totalRows: number,
    rowIndexes: readonly number[] | null = null,
  ): Promise<number> {
    const size = chunkSize(totalRows, await this.liveThreads());
    const chunks = planChunks(totalRows, size, rowIndexes);
    await this.pool.query(
      `WITH plan AS (
         INSERT INTO batch_ingest (batch_id, chunk_size) VALUES ($1, $2)
         ON CONFLICT (batch_id) DO NOTHING RETURNING batch_id)
       INSERT INTO batch_chunks (batch_id, n, from_row, to_row, state)
       SELECT plan.batch_id, c.n, c.f, c.t, 'waiting'
       FROM plan, unnest($3::int[], $4::int[], $5::int[]) AS c(n, f, t)`,
      [batchId, size, chunks.map((c) => c.n), chunks.map((c) => c.from), chunks.map((c) => c.to)],
    );
    return size;
  }

  /**
   * Chunks to add to the queue now: waiting chunks whose rows are all ingested, up to the window
   * of queued chunks per batch. They are marked queued before they are added; a chunk marked
   * but never added (a crash in between) is found by `staleDispatches` and added again.
   */
  async takeChunks(batchId: string): Promise<ChunkDispatch[]> {
    const window = chunkWindow(await this.liveThreads());
    const { rows } = await this.pool.query<{
      n: number;
      from_row: number;
      to_row: number;
      dispatches: number;
    }>(
      `WITH batch AS (
         SELECT b.id, b.ingested, b.ingest_complete,
           (SELECT COUNT(*) FROM batch_chunks q WHERE q.batch_id = b.id AND q.state = 'queued') AS queued
         FROM batches b WHERE b.id = $1 AND b.status IN ('queued', 'running')),
       picked AS (
         SELECT c.batch_id, c.n FROM batch_chunks c, batch
         WHERE c.batch_id = batch.id AND c.state = 'waiting'
           AND (batch.ingest_complete OR c.to_row <= batch.ingested)
         ORDER BY c.n
         LIMIT GREATEST(0, $2 - (SELECT queued FROM batch))
         FOR UPDATE OF c SKIP LOCKED)
       UPDATE batch_chunks c SET state = 'queued', dispatches = c.dispatches + 1, queued_at = now()
       FROM picked WHERE c.batch_id = picked.batch_id AND c.n = picked.n
       RETURNING c.n, c.from_row, c.to_row, c.dispatches`,
      [batchId, window],
    );
    return rows.map((row) => ({
      batchId,
      n: row.n,
      from: row.from_row,
      to: row.to_row,
      dispatch: row.dispatches,
    }));
  }

  /**
   * The worker rendered every row of the chunk it could; true when the batch has no open chunk.
   * Chunk completions of one batch take turns on its ingest row, so of two last chunks finishing
   * at once, the second sees the first done and finishes the batch (neither would otherwise).
   */
  async chunkDone(batchId: string, n: number): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM batch_ingest WHERE batch_id = $1 FOR UPDATE', [batchId]);
      await client.query("UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1 AND n = $2", [
        batchId,
        n,
      ]);
      const { rows } = await client.query<{ open: string }>(
        "SELECT COUNT(*) AS open FROM batch_chunks WHERE batch_id = $1 AND state <> 'done'",
        [batchId],
      );
      await client.query('COMMIT');
      client.release();
      return Number(rows[0]?.open ?? 1) === 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw error;
    }
  }

  /** Queued chunks whose last dispatch is older than `olderThanMs`: the leader checks them. */
  async staleDispatches(olderThanMs: number, limit = 500): Promise<ChunkDispatch[]> {
    const { rows } = await this.pool.query<{
      batch_id: string;
      n: number;
      from_row: number;
      to_row: number;
      dispatches: number;
    }>(
      `SELECT c.batch_id, c.n, c.from_row, c.to_row, c.dispatches FROM batch_chunks c
       JOIN batches b ON b.id = c.batch_id AND b.status IN ('queued', 'running')
       WHERE c.state = 'queued' AND c.queued_at < now() - make_interval(secs => $1)
       ORDER BY c.queued_at LIMIT $2`,
      [olderThanMs / 1000, limit],
    );
    return rows.map((row) => ({
      batchId: row.batch_id,
      n: row.n,
      from: row.from_row,
      to: row.to_row,
      dispatch: row.dispatches,
    }));
  }

  /** Marks a stale chunk dispatched again (same row, next dispatch number) and returns it. */
  async redispatch(chunk: ChunkDispatch): Promise<ChunkDispatch | null> {
    const { rows } = await this.pool.query<{ dispatches: number }>(
      `UPDATE batch_chunks SET dispatches = dispatches + 1, queued_at = now()
       WHERE batch_id = $1 AND n = $2 AND state = 'queued' AND dispatches = $3
       RETURNING dispatches`,
      [chunk.batchId, chunk.n, chunk.dispatch],
    );
    const row = rows[0];
    return row ? { ...chunk, dispatch: row.dispatches } : null;
  }

  /** Batches with chunks still to queue (the leader tops their windows up). */
  async batchesWithWaitingChunks(limit = 200): Promise<string[]> {
    const { rows } = await this.pool.query<{ batch_id: string }>(
      `SELECT DISTINCT c.batch_id FROM batch_chunks c
       JOIN batches b ON b.id = c.batch_id AND b.status IN ('queued', 'running')
       WHERE c.state = 'waiting' LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.batch_id);
  }

  /** Running batches read to the end whose chunks are all done: the leader finishes them. */
  async batchesToFinish(limit = 200): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT b.id FROM batches b
       WHERE b.status IN ('queued', 'running') AND b.ingest_complete
         AND EXISTS (SELECT 1 FROM batch_ingest i WHERE i.batch_id = b.id)
         AND NOT EXISTS (SELECT 1 FROM batch_chunks c WHERE c.batch_id = b.id AND c.state <> 'done')
       LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Chunks marked done that still have pending rows go back to waiting (a replay re-queues
   * failed rows; a chunk skipped while its batch was paused). Returns how many reopened.
   */
  async reopenChunksWithPendingRows(batchId: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE batch_chunks c SET state = 'waiting'
       WHERE c.batch_id = $1 AND c.state = 'done' AND EXISTS (
         SELECT 1 FROM batch_rows r WHERE r.batch_id = c.batch_id
           AND r.row_index >= c.from_row AND r.row_index < c.to_row AND r.status = 'pending')`,
      [batchId],
    );
    return rowCount ?? 0;
  }

  /** Takes (or renews) the right to read a batch's source; false when another node holds it. */
  async takeIngestLease(batchId: string, owner: string, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE batch_ingest SET owner = $2, lease_until = now() + make_interval(secs => $3)
       WHERE batch_id = $1 AND (owner IS NULL OR owner = $2 OR lease_until < now())`,
      [batchId, owner, leaseMs / 1000],
    );
    return (rowCount ?? 0) > 0;
  }

  async releaseIngestLease(batchId: string, owner: string): Promise<void> {
    await this.pool.query(
      'UPDATE batch_ingest SET owner = NULL, lease_until = NULL WHERE batch_id = $1 AND owner = $2',
      [batchId, owner],
    );
  }

  /** Batches still being read whose reader's lease ran out (its node died mid-ingest). */
  async orphanedIngests(limit = 50): Promise<string[]> {
    const { rows } = await this.pool.query<{ batch_id: string }>(
      `SELECT i.batch_id FROM batch_ingest i JOIN batches b ON b.id = i.batch_id
       WHERE NOT b.ingest_complete AND b.status IN ('queued', 'running')
         AND (i.lease_until IS NULL OR i.lease_until < now())
       LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.batch_id);
  }

  async tombstone(batchId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO deleted_batches (batch_id, deleted_at) VALUES ($1, now())
       ON CONFLICT (batch_id) DO NOTHING`,
      [batchId],
    );
  }

  /** Deleted batches due a sweep: first after `graceMs`, again after twice that, then forgotten. */
  async sweepsDue(graceMs: number): Promise<{ batchId: string; final: boolean }[]> {
    const { rows } = await this.pool.query<{ batch_id: string; final: boolean }>(
      `SELECT batch_id, swept_at IS NOT NULL AS final FROM deleted_batches
       WHERE (swept_at IS NULL AND deleted_at < now() - make_interval(secs => $1))
          OR (swept_at IS NOT NULL AND deleted_at < now() - make_interval(secs => $1 * 2))
       LIMIT 100`,
      [graceMs / 1000],
    );
    return rows.map((row) => ({ batchId: row.batch_id, final: row.final }));
  }

  async swept(batchId: string, final: boolean): Promise<void> {
    if (final) await this.pool.query('DELETE FROM deleted_batches WHERE batch_id = $1', [batchId]);
    else
      await this.pool.query('UPDATE deleted_batches SET swept_at = now() WHERE batch_id = $1', [
        batchId,
      ]);
  }

  async isDeleted(batchId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM deleted_batches WHERE batch_id = $1',
      [batchId],
    );
    return (rowCount ?? 0) > 0;
  }
}
