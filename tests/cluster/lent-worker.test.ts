import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cluster-services.js';
import {
  sharedInitialisedCluster,
  startClusterNode,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import { startTestServer, testFetch, type Json, type TestServer } from '../helpers/test-server.js';

/**
 * The desktop app lending its render threads to a team service: Settings → Team service starts
 * a cluster worker as a child of the app's core, which renders the team's batches, and stops it
 * again. Real PostgreSQL, Redis and s3rver; the team service is a cluster API node with no
 * worker of its own, so every row is drawn by the lent worker.
 */
let env: ClusterEnvironment;
let api: ClusterNodeProcess;
let desktop: TestServer;
let admin: pg.Pool;

async function workerState(): Promise<Json> {
  return (await (await desktop.api('/v1/team-service')).json()).worker;
}

async function waitForWorker(done: (state: Json) => boolean, timeoutMs = 90_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await workerState();
    if (done(state)) return state;
    if (Date.now() > deadline) throw new Error(`the lent worker is ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  env = await sharedInitialisedCluster();
  [api, desktop] = await Promise.all([startClusterNode(env, 'api'), startTestServer()]);
  admin = new pg.Pool({ connectionString: env.postgres.adminUrl, max: 1 });
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([desktop?.stop(), api?.stop()]);
  await admin?.end();
}, 120_000);

describe('lending this computer’s render threads to the team service', () => {
  it('starts a worker that renders the team’s batch, and stops it when lending is turned off', async () => {
    const saved = await desktop.api('/v1/team-service', {
      method: 'PUT',
      json: {
        url: api.url,
        apiKey: env.apiKey,
        lend: { enabled: true, workers: 1, postgresUrl: env.postgres.url },
        secrets: {
          s3AccessKeyId: env.s3.accessKeyId,
          s3SecretAccessKey: env.s3.secretAccessKey,
        },
      },
    });
    const body = await saved.text();
    expect(saved.status, body).toBe(200);
    expect(body).not.toContain(env.s3.secretAccessKey);
    const running = await waitForWorker((state) => state.status === 'running');
    const nodes = await admin.query<{ id: string; role: string }>(
      'SELECT id, role FROM cluster_nodes',
    );
    expect(nodes.rows).toContainEqual({ id: running.nodeId, role: 'worker' });

    const headers = { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' };
    const fields = await (
      await testFetch(`${api.url}/v1/render-batches/template-fields?templateId=tmpl_quote_card`, {
        headers,
      })
    ).json();
    const records = Array.from({ length: 12 }, (_, i) => ({
      ...fields.sampleRow,
      quote: `Lent thread ${i}`,
    }));
    const created = await testFetch(`${api.url}/v1/render-batches`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        templateId: 'tmpl_quote_card',
        sourceType: 'json-array',
        source: { records },
      }),
    });
    expect(created.status).toBe(202);
    const { id } = await created.json();
    const deadline = Date.now() + 120_000;
    let batch: Json;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      batch = await (await testFetch(`${api.url}/v1/render-batches/${id}`, { headers })).json();
      expect(Date.now() < deadline, JSON.stringify(batch)).toBe(true);
    } while (!['succeeded', 'partial', 'failed', 'cancelled'].includes(batch.status));
    expect(batch).toMatchObject({ status: 'succeeded', succeeded: 12 });

    await desktop.api('/v1/team-service', {
      method: 'PUT',
      json: { url: api.url, lend: { enabled: false, workers: 1, postgresUrl: env.postgres.url } },
    });
    expect(await workerState()).toEqual({ status: 'off', nodeId: null, detail: null });
    const left = await admin.query('SELECT 1 FROM cluster_nodes WHERE id = $1', [running.nodeId]);
    expect(left.rowCount).toBe(0);
  }, 240_000);

  it('reports a worker that cannot reach the cluster, without the password it was given', async () => {
    const password = `pw-${crypto.randomBytes(6).toString('hex')}`;
    await desktop.api('/v1/team-service', {
      method: 'PUT',
      json: {
        url: null,
        lend: {
          enabled: true,
          workers: 1,
          postgresUrl: `postgres://render@127.0.0.1:${await freePort()}/render_desk`,
        },
        secrets: { postgresPassword: password },
      },
    });
    const state = await waitForWorker(
      (s) => (s.status === 'restarting' || s.status === 'failed') && s.detail !== null,
    );
    expect(state.detail).toMatch(/ECONNREFUSED/);
    expect(state.detail).not.toContain(password);
    const read = await (await desktop.api('/v1/team-service')).text();
    expect(read).not.toContain(password);
    expect(JSON.parse(read).secretsSet.postgresPassword).toBe(true);
    await desktop.api('/v1/team-service', {
      method: 'PUT',
      json: { url: null, lend: { enabled: false, workers: 1, postgresUrl: null } },
    });
    expect((await workerState()).status).toBe('off');
  }, 120_000);
});
