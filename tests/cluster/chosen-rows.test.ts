import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  callNode,
  startClusterNode,
  sharedInitialisedCluster,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import type { Json } from '../helpers/test-server.js';
import { toCsv } from '../helpers/to-csv.js';

/**
 * A batch of some rows of an uploaded spreadsheet (source.rows) on a team service: an API node
 * reads just those rows into PostgreSQL with their own indexes, a worker renders them, and the
 * holds and debits count only them.
 */
let env: ClusterEnvironment;
let admin: pg.Pool;
let api: ClusterNodeProcess;
let worker: ClusterNodeProcess;
let sampleRow: Json;

const TEMPLATE = 'tmpl_quote_card';

const call = (pathname: string, init?: RequestInit & { json?: unknown }) =>
  callNode(env, api, pathname, init);

async function waitUntilFinished(id: string): Promise<Json> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const batch: Json = await (await call(`/v1/render-batches/${id}`)).json();
    if (['succeeded', 'partial', 'failed', 'degraded', 'cancelled'].includes(batch.status))
      return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} is still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  env = await sharedInitialisedCluster();
  admin = new pg.Pool({ connectionString: env.postgres.adminUrl, max: 2 });
  api = await startClusterNode(env, 'api');
  worker = await startClusterNode(env, 'worker');
  sampleRow = (
    await (await call(`/v1/render-batches/template-fields?templateId=${TEMPLATE}`)).json()
  ).sampleRow;
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([api?.stop(), worker?.stop()]);
  await admin?.end();
}, 120_000);

describe('a batch of some rows of an upload on a team service', () => {
  it('renders and charges only the chosen rows, under their own row indexes', async () => {
    const header = Object.keys(sampleRow);
    const rows = Array.from({ length: 6 }, (_, i) => ({ ...sampleRow, quote: `Quote ${i}` }));
    const csv = toCsv(
      header,
      rows.map((row) => header.map((name) => (row as Json)[name])),
    );
    const uploaded = await call('/v1/uploads?filename=quotes.csv', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    expect(uploaded.status).toBe(201);
    const upload: Json = await uploaded.json();
    const body = {
      templateId: TEMPLATE,
      sourceType: 'csv',
      source: { sourceRef: upload.id, rows: [1, 4] },
    };

    const check: Json = await (
      await call('/v1/render-batches/preflight', { method: 'POST', json: body })
    ).json();
    expect([check.total, check.cost]).toEqual([2, 2]);
    const past = await call('/v1/render-batches', {
      method: 'POST',
      json: { ...body, source: { sourceRef: upload.id, rows: [1, 6] } },
    });
    expect(past.status).toBe(422);
    expect(((await past.json()) as Json).errors[0].path).toBe('source.rows[1]');

    const created = await call('/v1/render-batches', { method: 'POST', json: body });
    const accepted: Json = await created.json();
    expect(created.status, JSON.stringify(accepted)).toBe(202);
    expect(accepted.total).toBe(2);
    const done = await waitUntilFinished(accepted.id);
    expect(done).toMatchObject({ status: 'succeeded', total: 2, succeeded: 2, someRows: true });
    const page: Json = await (await call(`/v1/render-batches/${accepted.id}/renders`)).json();
    expect(page.rows.map((r: Json) => [r.rowIndex, r.line, r.fileName])).toEqual([
      [1, 3, '2.png'],
      [4, 6, '5.png'],
    ]);
    const ledger = await admin.query<{ kind: string; n: string; amount: string }>(
      `SELECT kind, COUNT(*) AS n, SUM(amount) AS amount FROM ledger WHERE batch_id = $1
       GROUP BY kind ORDER BY kind`,
      [accepted.id],
    );
    const byKind = Object.fromEntries(
      ledger.rows.map((r) => [r.kind, [Number(r.n), Number(r.amount)]]),
    );
    expect(byKind.debit).toEqual([2, 2]);
    expect(byKind.hold?.[1]).toBe(2);
  }, 300_000);

  it('draws each chosen row in every size (targets), numbered and named as the app does', async () => {
    const header = Object.keys(sampleRow);
    const rows = Array.from({ length: 4 }, (_, i) => ({ ...sampleRow, quote: `Size ${i}` }));
    const csv = toCsv(
      header,
      rows.map((row) => header.map((name) => (row as Json)[name])),
    );
    const uploaded: Json = await (
      await call('/v1/uploads?filename=sizes.csv', {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: csv,
      })
    ).json();
    const sources: { sourceRef: string; rows?: number[] }[] = [
      { sourceRef: uploaded.id },
      { sourceRef: uploaded.id, rows: [2] },
    ];
    for (const source of sources) {
      const created = await call('/v1/render-batches', {
        method: 'POST',
        json: { templateId: TEMPLATE, sourceType: 'csv', source, targets: ['square', 'story'] },
      });
      const accepted: Json = await created.json();
      expect(created.status, JSON.stringify(accepted)).toBe(202);
      const chosen = source.rows ?? [0, 1, 2, 3];
      expect(accepted.total).toBe(chosen.length * 2);
      const done = await waitUntilFinished(accepted.id);
      expect(done).toMatchObject({ status: 'succeeded', succeeded: chosen.length * 2 });
      const page: Json = await (await call(`/v1/render-batches/${accepted.id}/renders`)).json();
      expect(page.rows.map((r: Json) => [r.rowIndex, r.fileName])).toEqual(
        chosen.flatMap((row) => [
          [row * 2, `${row + 1}-square.png`],
          [row * 2 + 1, `${row + 1}-story.png`],
        ]),
      );
      // Each size is drawn at its own canvas: a story is taller than it is wide.
      const story = page.rows.find((r: Json) => r.fileName.endsWith('-story.png'));
      const image = await callNode(env, api, `/v1/outputs/${story.outputKey}`);
      const png = Buffer.from(await image.arrayBuffer());
      expect(png.readUInt32BE(20)).toBeGreaterThan(png.readUInt32BE(16));
    }
  }, 300_000);
});
