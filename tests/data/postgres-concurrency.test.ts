import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
import { Coordination } from '../../main/cluster/coordination.js';
import { BATCH_CHANNEL } from '../../main/data/postgres/batch-notify.js';
import { openPostgres } from '../../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { failed, newBatch, rowContext, sourceRecords, succeeded } from './batch-fixtures.js';
import { expectBalanced, useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

/** Two nodes on one database: each with its own pool, as two machines would be. */
async function twoNodes(): Promise<{ url: string; nodes: [CoreData, CoreData] }> {
  const url = await implementations.freshDatabaseUrl();
  const nodes: [CoreData, CoreData] = [
    postgresCoreData(openPostgres(url, { max: 4, applicationName: 'node-a' })),
    postgresCoreData(openPostgres(url, { max: 4, applicationName: 'node-b' })),
  ];
  return { url, nodes };
}

async function closeAll(nodes: CoreData[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.close()));
}

/** A queued batch of `total` rows on `data`, rows left pending as cluster workers find them. */
async function queuedBatch(data: CoreData, total: number): Promise<string> {
  await data.ledger.grant(total);
  const id = data.batches.newId();
  await data.commands.createBatch({ batch: newBatch(id, total), records: sourceRecords(total) });
  await data.batches.update(id, { status: 'running' });
  return id;
}

describe('PostgreSQL across nodes', () => {
  it('charges once when two nodes commit the same rows at the same time', async () => {
    const { nodes } = await twoNodes();
    try {
      const [a, b] = nodes;
      const id = await queuedBatch(a, 300);
      const rows = await a.batches.pendingInRange(id, 0, 300);
      const outcomes = rows.map((row) => succeeded(id, row));
      // Overlapping groups in opposite orders, from both nodes at once, several times over.
      const groups = [
        { node: a, outcomes: outcomes.slice(0, 200) },
        { node: b, outcomes: outcomes.slice(100, 300).reverse() },
        { node: a, outcomes: outcomes.slice(50, 250) },
        { node: b, outcomes: outcomes.slice(0, 300) },
      ];
      const changed = await Promise.all(
        groups.map((group) => group.node.commands.commitRows(rowContext(id), group.outcomes)),
      );
      expect(changed.reduce((sum, n) => sum + n, 0)).toBe(300);
      expect(await b.batches.get(id)).toMatchObject({ succeeded: 300, failed: 0 });
      expect(await a.ledger.account()).toEqual({
        balance: 0,
        heldCredits: 0,
        granted: 300,
        debited: 300,
      });
      const debits = await a.ledger.list({ kind: 'debit', limit: 500 });
      expect(new Set(debits.entries.map((e) => e.rowIndex)).size).toBe(300);
      expect(debits.entries).toHaveLength(300);
      await expectBalanced(a);
    } finally {
      await closeAll(nodes);
    }
  });

  it('lets a worker commit pending rows of its range without claiming them, and finds only unfinished rows', async () => {
    const { nodes } = await twoNodes();
    try {
      const [api, worker] = nodes;
      const id = await queuedBatch(api, 120);
      const chunk = await worker.batches.pendingInRange(id, 50, 100);
      expect(chunk.map((row) => row.rowIndex)).toEqual(
        Array.from({ length: 50 }, (_, i) => 50 + i),
      );
      expect(chunk[0]).toEqual({
        rowIndex: 50,
        line: 52,
        record: { sku: 'SKU-50', headline: 'Row 50', Giá: 50_000 },
        attempts: 0,
        renderId: expect.stringMatching(/^rnd_/),
      });
      await worker.commands.commitRows(
        rowContext(id),
        chunk.map((row) => (row.rowIndex === 60 ? failed(60) : succeeded(id, row))),
      );
      // The chunk job delivered again (at least once): nothing is left to render.
      expect(await worker.batches.pendingInRange(id, 50, 100)).toEqual([]);
      expect((await worker.batches.pendingInRange(id, 40, 55)).map((r) => r.rowIndex)).toEqual([
        40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
      ]);
      expect(await api.batches.counts(id)).toMatchObject({ pending: 70, succeeded: 49, failed: 1 });
      await expectBalanced(api);
    } finally {
      await closeAll(nodes);
    }
  });

  it('hands concurrent claimers different rows', async () => {
    const { nodes } = await twoNodes();
    try {
      const [a, b] = nodes;
      const id = await queuedBatch(a, 200);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? a : b).batches.claim(id, 25, Date.now() + 60_000),
        ),
      );
      const claimed = claims.flat().map((row) => row.rowIndex);
      expect(claimed).toHaveLength(200);
      expect(new Set(claimed).size).toBe(200);
    } finally {
      await closeAll(nodes);
    }
  });

  it('announces a batch change on render_desk_batch only when a commit changed rows', async () => {
    const { url, nodes } = await twoNodes();
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => {
        if (message.channel === BATCH_CHANNEL) heard.push(message.payload ?? '');
      });
      await listener.query(`LISTEN ${BATCH_CHANNEL}`);
      const [a] = nodes;
      const id = await queuedBatch(a, 3);
      const rows = await a.batches.pendingInRange(id, 0, 3);
      await a.commands.commitRows(rowContext(id), [succeeded(id, rows[0]!)]);
      await a.commands.commitRows(rowContext(id), [succeeded(id, rows[0]!)]);
      await a.commands.cancelBatch(id);
      await a.commands.replayBatch(id);
      // A round trip on the listener's connection delivers everything sent before it.
      await listener.query('SELECT 1');
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual([id, id, id]);
    } finally {
      await listener.end();
      await closeAll(nodes);
    }
  });

  it('debits exactly one of twenty concurrent renders when the balance covers one', async () => {
    const { nodes } = await twoNodes();
    try {
      await nodes[0].ledger.grant(1);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          nodes[i % 2]!.commands.commitSingleRender({
            renderId: `rnd_race${String(i).padStart(4, '0')}`,
            apiKeyId: 'key_contract',
            templateId: 'tmpl_product_promo',
            ratio: 'square',
            format: 'png',
            bytes: 10,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(19);
      for (const r of refused) expect(r.reason).toMatchObject({ code: 'insufficient-credits' });
      expect(await nodes[1].ledger.account()).toMatchObject({ balance: 0, debited: 1 });
      await expectBalanced(nodes[0]);
    } finally {
      await closeAll(nodes);
    }
  });

  it('grants the opening balance once when nodes start together, and lets one claim an idempotency key', async () => {
    const { nodes } = await twoNodes();
    try {
      const grants = await Promise.all(
        [...nodes, ...nodes].map((node) => node.commands.initialiseAccount(50)),
      );
      expect(grants.map((g) => g.granted).sort((x, y) => x - y)).toEqual([0, 0, 0, 50]);
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          nodes[i % 2]!.idempotency.claim({
            apiKeyId: 'key_contract',
            key: 'same-key',
            requestHash: 'hash-a',
          }),
        ),
      );
      expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.state === 'in-progress')).toHaveLength(9);
      await expectBalanced(nodes[0]);
    } finally {
      await closeAll(nodes);
    }
  });
  it('deletes a batch while a worker is marking one of its chunks done, without a deadlock', async () => {
    const { url, nodes } = await twoNodes();
    const workerPool = openPostgres(url, { max: 2, applicationName: 'worker' });
    const worker = await workerPool.connect();
    try {
      const [api] = nodes;
      const id = await queuedBatch(api, 100);
      await new Coordination(workerPool).planBatch(id, 100);
      // A worker finishing a chunk, half-way: the ingest row locked, its chunk not yet updated.
      await worker.query('BEGIN');
      await worker.query('SELECT 1 FROM batch_ingest WHERE batch_id = $1 FOR UPDATE', [id]);
      const removing = api.batches.remove(id);
      // Long enough for the delete to reach whatever it waits on.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await worker.query("UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1 AND n = 0", [
        id,
      ]);
      await worker.query('COMMIT');
      expect(await removing).toBe(true);
      expect(await api.batches.get(id)).toBeNull();
      const left = await workerPool.query('SELECT 1 FROM batch_chunks WHERE batch_id = $1', [id]);
      expect(left.rowCount).toBe(0);
    } finally {
      worker.release();
      await workerPool.end();
      await closeAll(nodes);
    }
  });
});
