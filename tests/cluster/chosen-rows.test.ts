import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  startPostgres,
  startRedis,
  startS3,
  useServiceScope,
} from '../helpers/cluster-services.js';
import {
  clusterInit,
  startClusterNode,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import { testFetch, type Json } from '../helpers/test-server.js';

/**
 * A batch of some rows of an uploaded spreadsheet (source.rows) on a team service: an API node
 * reads just those rows into PostgreSQL with their own indexes, a worker renders them, and the
 * holds and debits count only them.
 */
const scope = useServiceScope();
let env: ClusterEnvironment;
let admin: pg.Pool;
let api: ClusterNodeProcess;
let worker: ClusterNodeProcess;
let sampleRow: Json;

const TEMPLATE = 'tmpl_quote_card';

async function call(pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${env.apiKey}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return testFetch(`${api.url}${pathname}`, { ...init, headers, body });
}

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
  const [postgres, redis, s3] = await Promise.all([
    startPostgres(scope),
    startRedis(scope),
    startS3(scope),
  ]);
  env = {
    postgres,
    redis,
    s3,
    apiKey: `rdk_cluster_${crypto.randomBytes(12).toString('hex')}`,
    lockMs: 4000,
  };
  admin = new pg.Pool({ connectionString: postgres.adminUrl, max: 2 });
  const init = await clusterInit(
    env,
    redis.url,
    `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}`,
  );
  expect(init.code, init.output).toBe(0);
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
    const cell = (value: unknown) => {
      const text = Array.isArray(value) ? value.join(' | ') : value === null ? '' : String(value);
      return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    const rows = Array.from({ length: 6 }, (_, i) => ({ ...sampleRow, quote: `Quote ${i}` }));
    const csv = [header, ...rows.map((row) => header.map((name) => (row as Json)[name]))]
      .map((line) => line.map(cell).join(','))
      .join('\r\n');
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
});
