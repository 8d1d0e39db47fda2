import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { uiSessionHeaders } from '../helpers/ui-session.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { ApiRequest, Json, TestResponse } from '../helpers/test-server.js';

/**
 * Two render keys on one server: each sees and changes only what it created, and another key's
 * batch, upload or output answers exactly as an unknown id does.
 */

type Api = (pathname: string, init?: ApiRequest) => Promise<TestResponse>;

let server: InjectServer;
let template: CatalogDetail;
let alice: Api;
let bob: Api;

function withKey(secret: string): Api {
  return (pathname, init = {}) =>
    server.api(pathname, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${secret}` },
    });
}

/** A key of the default scope, `render`. */
async function renderKey(name: string): Promise<Api> {
  const res = await server.api('/v1/api-keys', { method: 'POST', json: { name } });
  expect(res.status).toBe(201);
  return withKey((await res.json()).secret);
}

async function finishedBatch(api: Api, rows = 2): Promise<Json> {
  const res = await api('/v1/render-batches', {
    method: 'POST',
    json: {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: Array.from({ length: rows }, () => template.sampleValues) },
    },
  });
  expect(res.status, await res.clone().text()).toBe(202);
  const { id } = await res.json();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const batch = await (await api(`/v1/render-batches/${id}`)).json();
    if (!['queued', 'running'].includes(batch.status)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The same request for another key's id and for an id nobody has: both must read alike. */
async function expectLikeUnknown(
  foreign: TestResponse,
  unknown: TestResponse,
  foreignId: string,
  unknownId: string,
): Promise<void> {
  expect(foreign.status).toBe(unknown.status);
  const a = (await foreign.text()).replaceAll(foreignId, 'ID');
  const b = (await unknown.text()).replaceAll(unknownId, 'ID');
  expect(a).toBe(b);
}

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  template = await catalogDetail(server, 'tmpl_product_promo');
  alice = await renderKey('alice');
  bob = await renderKey('bob');
});
afterAll(() => server.stop());

describe('batches of another key', () => {
  it('are invisible to it: 404 for the batch, its rows, bundle and events; cancel, replay and delete change nothing', async () => {
    const batch = await finishedBatch(alice);
    expect(batch.status).toBe('succeeded');
    const unknown = 'bat_AAAAAAAAAAAAAAAA';
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/renders?cursor=0'],
      ['GET', '/bundle'],
      ['GET', '/events'],
      ['POST', '/cancel'],
      ['POST', '/replay'],
      ['DELETE', ''],
    ] as const) {
      const foreign = await bob(`/v1/render-batches/${batch.id}${suffix}`, { method });
      expect(foreign.status, `${method} ${suffix}`).toBe(404);
      await expectLikeUnknown(
        foreign,
        await bob(`/v1/render-batches/${unknown}${suffix}`, { method }),
        batch.id,
        unknown,
      );
    }
    const still = await (await alice(`/v1/render-batches/${batch.id}`)).json();
    expect(still).toMatchObject({ id: batch.id, status: 'succeeded', succeeded: 2 });
    expect((await server.api(`/v1/render-batches/${batch.id}`)).status).toBe(200);
  });

  it('are left out of its list, while admin keys and the UI session list every batch', async () => {
    const mine = await finishedBatch(alice, 1);
    const theirs = await finishedBatch(bob, 1);
    const ids = async (res: TestResponse) => ((await res.json()) as Json[]).map((b) => b.id);
    const aliceSees = await ids(await alice('/v1/render-batches'));
    expect(aliceSees).toContain(mine.id);
    expect(aliceSees).not.toContain(theirs.id);
    const bobSees = await ids(await bob('/v1/render-batches'));
    expect(bobSees).toContain(theirs.id);
    expect(bobSees).not.toContain(mine.id);
    expect(await ids(await server.api('/v1/render-batches'))).toEqual(
      expect.arrayContaining([mine.id, theirs.id]),
    );
    const session = await uiSessionHeaders(server);
    expect(
      await ids(await server.fetch(`${server.url}/v1/render-batches`, { headers: session })),
    ).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it('can be cancelled and deleted by its own key and by admin keys', async () => {
    const own = await finishedBatch(alice, 1);
    expect((await alice(`/v1/render-batches/${own.id}/cancel`, { method: 'POST' })).status).toBe(
      200,
    );
    expect((await alice(`/v1/render-batches/${own.id}`, { method: 'DELETE' })).status).toBe(204);
    const other = await finishedBatch(bob, 1);
    expect((await server.api(`/v1/render-batches/${other.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
  });
});

describe('outputs of another key', () => {
  it('are 404, for batch rows and for idempotent single renders alike', async () => {
    const batch = await finishedBatch(alice, 1);
    const page = await (await alice(`/v1/render-batches/${batch.id}/renders?cursor=0`)).json();
    const rowOutput: string = page.rows[0].outputKey;
    expect(rowOutput).toMatch(/^bat_/);

    const render = await alice('/v1/render', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'alice-render-1' },
      json: { templateId: template.id, values: template.sampleValues },
    });
    expect(render.status).toBe(200);
    const singleOutput = `${render.headers.get('x-render-id')}.png`;

    for (const key of [rowOutput, singleOutput]) {
      expect((await alice(`/v1/outputs/${key}`)).status, key).toBe(200);
      expect((await server.api(`/v1/outputs/${key}?width=64`)).status, key).toBe(200);
      const unknown = key.startsWith('bat_') ? 'bat_AAAAAAAAAAAAAAAA.0.png' : 'rnd_AAAAAAAA.png';
      const foreign = await bob(`/v1/outputs/${key}`);
      expect(foreign.status, key).toBe(404);
      await expectLikeUnknown(foreign, await bob(`/v1/outputs/${unknown}`), key, unknown);
    }

    // The same Idempotency-Key under another key is that key's own new render, not a replay.
    const replay = await bob('/v1/render', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'alice-render-1' },
      json: { templateId: template.id, values: template.sampleValues },
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.headers.get('x-render-id')).not.toBe(render.headers.get('x-render-id'));
  });
});

describe('uploads of another key', () => {
  it('are 404 to read, and a batch or pre-flight naming one answers as for an unknown upload', async () => {
    const csv = ['headline,price', 'Serum,24.5', 'Cream,12'].join('\n');
    const created = await alice('/v1/uploads?filename=products.csv', {
      method: 'POST',
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(created.status).toBe(201);
    const uploadId: string = (await created.json()).id;
    const unknown = 'upl_AAAAAAAAAAAAAAAA';
    expect((await alice(`/v1/uploads/${uploadId}`)).status).toBe(200);
    expect((await server.api(`/v1/uploads/${uploadId}`)).status).toBe(200);
    for (const suffix of ['', '?sheet=0']) {
      await expectLikeUnknown(
        await bob(`/v1/uploads/${uploadId}${suffix}`),
        await bob(`/v1/uploads/${unknown}${suffix}`),
        uploadId,
        unknown,
      );
    }

    const batchBody = (ref: string) => ({
      templateId: template.id,
      target: 'square',
      sourceType: 'csv',
      source: { sourceRef: ref },
      bindings: { photo: { constant: template.sampleValues.photo } },
    });
    for (const path of ['/v1/render-batches', '/v1/render-batches/preflight']) {
      const foreign = await bob(path, { method: 'POST', json: batchBody(uploadId) });
      expect(foreign.status, path).toBeGreaterThanOrEqual(400);
      await expectLikeUnknown(
        foreign,
        await bob(path, { method: 'POST', json: batchBody(unknown) }),
        uploadId,
        unknown,
      );
    }
    const own = await alice('/v1/render-batches/preflight', {
      method: 'POST',
      json: batchBody(uploadId),
    });
    expect(own.status, await own.clone().text()).toBe(200);
    expect(await own.json()).toMatchObject({ total: 2, fields: ['headline', 'price'] });
  });
});

describe('the ledger', () => {
  it("shows a non-admin key only its own renders and its batches' entries", async () => {
    const carol = await renderKey('carol');
    const dave = await renderKey('dave');
    const render = async (api: Api) => {
      const res = await api('/v1/render', {
        method: 'POST',
        json: { templateId: template.id, values: template.sampleValues },
      });
      expect(res.status).toBe(200);
      return res.headers.get('x-render-id');
    };
    const carolRender = await render(carol);
    const daveRender = await render(dave);
    const carolBatch = await finishedBatch(carol, 1);
    const entries = async (api: Api) =>
      ((await (await api('/v1/account/ledger?limit=500')).json()).entries as Json[]).map(
        (e) => e.renderId ?? e.batchId,
      );
    const seen = await entries(carol);
    expect(seen).toContain(carolRender);
    expect(seen).toContain(carolBatch.id);
    expect(seen).not.toContain(daveRender);
    const page = await (await carol('/v1/account/ledger?limit=500&kind=grant')).json();
    expect(page.entries).toEqual([]);
    expect(await entries(server.api)).toEqual(expect.arrayContaining([carolRender, daveRender]));
    await expectProblem(
      await carol('/v1/account/credits', { method: 'POST', json: { amount: 5 } }),
      403,
    );
  });
});
