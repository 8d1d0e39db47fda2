import fs from 'node:fs';
import AdmZip from 'adm-zip';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { useServiceScope } from '../helpers/cluster-services.js';
import {
  callNode,
  startInitialisedCluster,
  startClusterNode,
  type ClusterEnvironment,
  type OwnClusterServices,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { poppler } from '../helpers/poppler.js';
import { testFetch, type Json } from '../helpers/test-server.js';
import { Redis } from 'ioredis';
import { S3ObjectStore } from '../../main/objects/s3-object-store.js';

/**
 * Two API nodes and a worker of one cluster. Workspace templates, their images and uploaded
 * fonts written on one API node are read, rendered and batched on the other API node and on the
 * worker, byte for byte as on the node that wrote them (PostgreSQL holds the rows, the object
 * store the files); a UI launch link made on one node opens the app on the other, once.
 */
const scope = useServiceScope();
let env: ClusterEnvironment<OwnClusterServices>;
let first: ClusterNodeProcess;
let second: ClusterNodeProcess;
let worker: ClusterNodeProcess;

const SOURCE = 'tmpl_product_promo';
const FONT = testFont(MONTSERRAT, 'Cluster Display');
const IMAGE = fs.readFileSync(
  path.join(REPO_ROOT, 'tests', 'fixtures', 'corpora', 'pngsuite', 'basn2c08.png'),
);

const call = (
  node: ClusterNodeProcess,
  pathname: string,
  init?: RequestInit & { json?: unknown },
) => callNode(env, node, pathname, init);

async function json(res: Response, status: number): Promise<Json> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  return body ? (JSON.parse(body) as Json) : null;
}

async function render(node: ClusterNodeProcess, templateId: string, values: Json) {
  const res = await call(node, '/v1/render', {
    method: 'POST',
    json: { templateId, values, target: 'square', format: 'png' },
  });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  env = await startInitialisedCluster(scope);
  [first, second, worker] = await Promise.all([
    startClusterNode(env, 'api'),
    startClusterNode(env, 'api'),
    startClusterNode(env, 'worker'),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([first?.stop(), second?.stop(), worker?.stop()]);
}, 120_000);

describe('sheets on a cluster', () => {
  it('draws a batch of badges 4 a sheet with duplex backs on the worker, into the object store, and bundles them with their places', async () => {
    const records = Array.from({ length: 6 }, (_, i) => ({
      eventName: 'Expo',
      firstName: `Guest${i + 1}x`,
      lastName: 'Lê',
    }));
    const created = await json(
      await call(first, '/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: 'tmpl_name_badge',
          target: 'badge',
          format: 'pdf',
          sourceType: 'json-array',
          source: { records },
          sheets: { preset: 'a6-on-a4', duplex: 'long-edge' },
        },
      }),
      202,
    );
    let batch: Json;
    const deadline = Date.now() + 120_000;
    for (;;) {
      batch = await json(await call(second, `/v1/render-batches/${created.id}`), 200);
      if (!['queued', 'running'].includes(batch.status) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(batch).toMatchObject({ status: 'succeeded', succeeded: 6 });
    const link = await json(
      await call(second, `/v1/render-batches/${created.id}/bundle?manifest=true`),
      200,
    );
    const res = await testFetch(link.url);
    expect(res.status).toBe(200);
    const zip = new AdmZip(Buffer.from(await res.arrayBuffer()));
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['manifest.csv', 'sheets-1.pdf']);
    const pdf = zip.readFile('sheets-1.pdf')!;
    expect(poppler('pdfinfo', pdf)).toMatch(/^Pages:\s+4$/m);
    expect(poppler('pdftotext', pdf, ['-f', '3', '-l', '4'])).toContain('Guest6x');
    const manifest = zip.readAsText('manifest.csv').trim().split(/\r?\n/);
    expect(manifest[6]).toBe('5,succeeded,,,sheets-1.pdf,2,3,4,2');
    // The part a worker stored is served by its output key from any API node.
    expect(batch.sheetParts).toMatchObject([
      { file: 'sheets-1.pdf', outputKey: `${created.id}.sheets-1.pdf`, pages: 4, backs: 2 },
    ]);
    const part = await call(first, `/v1/outputs/${created.id}.sheets-1.pdf`);
    expect(part.status).toBe(200);
    expect(Buffer.from(await part.arrayBuffer()).equals(pdf)).toBe(true);
  });
});

describe('the shared workspace of a cluster', () => {
  it('renders a template forked, given an image and a font on one API node the same on another API node and on a worker', async () => {
    const font = await json(
      await call(first, '/v1/fonts', {
        method: 'POST',
        body: FONT,
        headers: { 'content-type': 'font/ttf' },
      }),
      201,
    );
    const forked = await json(
      await call(first, `/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: {} }),
      201,
    );
    const id = forked.id as string;
    const { asset } = await json(
      await call(first, `/v1/templates/${id}/assets`, {
        method: 'POST',
        body: IMAGE,
        headers: { 'content-type': 'image/png' },
      }),
      201,
    );
    const layouts = structuredClone(forked.template.layouts);
    const headline = layouts.square.layers.find((l: Json) => l.id === 'headline');
    headline.font.family = 'Cluster Display';
    const saved = await json(
      await call(first, `/v1/templates/${id}`, {
        method: 'PATCH',
        json: { layouts, baseVersion: forked.version },
      }),
      200,
    );
    expect(saved.version).toBe(forked.version + 1);

    // Read at once on the other API node: what was saved, not what was there before.
    const read = await json(await call(second, `/v1/templates/${id}`), 200);
    expect(read.version).toBe(saved.version);
    expect(read.template.layouts.square.layers.find((l: Json) => l.id === 'headline').font).toEqual(
      headline.font,
    );
    const fonts = await json(await call(second, '/v1/fonts'), 200);
    expect(fonts.families.map((f: Json) => f.family)).toContain('Cluster Display');

    const values = {
      ...forked.template.sampleValues,
      headline: 'Shared workspace',
      photo: `asset:${asset}`,
    };
    const here = await render(first, id, values);
    const there = await render(second, id, values);
    expect(there.equals(here)).toBe(true);
    // The font and the image matter: without them the render differs.
    const plain = await render(first, SOURCE, {
      ...values,
      photo: forked.template.sampleValues.photo,
    });
    expect(plain.equals(here)).toBe(false);

    // A batch created on the second API node and rendered by the worker.
    const rows = [values, { ...values, headline: 'Second row' }, { ...values, headline: 'Ba' }];
    const batch = await json(
      await call(second, '/v1/render-batches', {
        method: 'POST',
        json: { templateId: id, sourceType: 'json-array', source: { records: rows } },
      }),
      202,
    );
    let state: Json;
    const deadline = Date.now() + 120_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = await json(await call(first, `/v1/render-batches/${batch.id}`), 200);
      expect(Date.now() < deadline, JSON.stringify(state)).toBe(true);
    } while (!['succeeded', 'partial', 'failed', 'degraded', 'cancelled'].includes(state.status));
    expect(state.status, JSON.stringify(state)).toBe('succeeded');
    const page = await json(await call(first, `/v1/render-batches/${batch.id}/renders`), 200);
    for (const row of page.rows as Json[]) {
      const stored = Buffer.from(
        await (await call(second, `/v1/outputs/${row.outputKey}`)).arrayBuffer(),
      );
      const single = await render(first, id, rows[row.rowIndex]);
      expect(stored.equals(single), `row ${row.rowIndex}`).toBe(true);
    }
    expect(worker.output()).not.toMatch(/shared workspace could not/);

    // Deleting is shared too: a font removed on one node is gone from the other's list.
    const spare = await json(
      await call(second, '/v1/fonts', {
        method: 'POST',
        body: testFont(MONTSERRAT, 'Cluster Spare'),
        headers: { 'content-type': 'font/ttf' },
      }),
      201,
    );
    expect(font.id).not.toBe(spare.id);
    expect((await call(first, `/v1/fonts/${spare.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await json(await call(second, '/v1/fonts'), 200);
    expect(after.families.map((f: Json) => f.family)).not.toContain('Cluster Spare');
  }, 240_000);

  it('refuses a save based on a version another API node has replaced (409 version-conflict)', async () => {
    const forked = await json(
      await call(first, `/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: {} }),
      201,
    );
    const id = forked.id as string;
    const edit = (name: string) => ({ name, baseVersion: forked.version });
    const answers = await Promise.all([
      call(first, `/v1/templates/${id}`, { method: 'PATCH', json: edit('From the first node') }),
      call(second, `/v1/templates/${id}`, { method: 'PATCH', json: edit('From the second node') }),
    ]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409]);
    const conflict = await answers.find((res) => res.status === 409)!.json();
    expect(conflict.code).toBe('version-conflict');
    const winner = await answers.find((res) => res.status === 200)!.json();
    for (const node of [first, second]) {
      const read = await json(await call(node, `/v1/templates/${id}`), 200);
      expect(read.version).toBe(forked.version + 1);
      expect(read.template.name).toBe(winner.template.name);
    }

    // Deleted on one node: gone on the other.
    expect((await call(second, `/v1/templates/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(first, `/v1/templates/${id}`)).status).toBe(404);
  }, 120_000);
});

describe('deleted workspace templates in a cluster', () => {
  it('purges a template deleted on one API node from the object store and from every copy once no batch names it', async () => {
    const forked = await json(
      await call(second, `/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: {} }),
      201,
    );
    const id = forked.id as string;
    const { asset } = await json(
      await call(second, `/v1/templates/${id}/assets`, {
        method: 'POST',
        body: IMAGE,
        headers: { 'content-type': 'image/png' },
      }),
      201,
    );
    const copies = [
      path.join(first.dataDir, 'workspace-templates', id),
      path.join(second.dataDir, 'workspace-templates', id),
      path.join(worker.dataDir, 'cache', 'cluster', 'workspace', 'workspace-templates', id),
    ];
    const objects = new S3ObjectStore({
      bucket: env.s3.bucket,
      endpoint: env.s3.endpoint,
      region: env.s3.region,
      credentials: { accessKeyId: env.s3.accessKeyId, secretAccessKey: env.s3.secretAccessKey },
    });
    const stored = async () =>
      (await objects.list(`workspace-templates/${id}/`)).entries.map((e) => e.key);
    try {
      // Every node copies the template and its image (the first and the worker by following).
      await until(() => copies.every((dir) => fs.existsSync(path.join(dir, 'assets', asset))));
      // The fork's own copies of the source's images, and the uploaded one.
      expect(await stored()).toContain(`workspace-templates/${id}/assets/${asset}`);

      const deleted = await call(first, `/v1/templates/${id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      await json(await call(second, `/v1/templates/${id}`), 404);
      // The leader purges it after the grace (3 × the chunk lock here): files, rows, copies.
      await until(
        async () => (await stored()).length === 0 && copies.every((d) => !fs.existsSync(d)),
      );
      await json(await call(first, `/v1/templates/${id}`), 404);
    } finally {
      await objects.close();
    }
  }, 120_000);
});

/** Polls `check` every 250 ms until it holds; fails after 60 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('UI sessions of a cluster', () => {
  it('opens a launch link made on one API node on the other, once, with a session both honour', async () => {
    const link = await json(await call(first, '/v1/ui-sessions', { method: 'POST' }), 201);
    const token = new URL(link.url).searchParams.get('token')!;
    const trade = (node: ClusterNodeProcess) =>
      testFetch(`${node.url}/ui/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    const { session } = await json(await trade(second), 201);
    for (const node of [first, second]) {
      const res = await testFetch(`${node.url}/v1/account`, {
        headers: { 'x-render-desk-session': session },
      });
      expect(res.status, node.url!).toBe(200);
    }
    // Spent for the whole cluster: the first node refuses it too.
    const again = await trade(first);
    expect(again.status).toBe(403);
    expect((await again.json()).code).toBe('url-expired');
    const forged = `${session.slice(0, -4)}AAAA`;
    const refused = await testFetch(`${first.url}/v1/account`, {
      headers: { 'x-render-desk-session': forged },
    });
    expect(refused.status).toBe(401);
  }, 60_000);
});

describe('preview links on a cluster', () => {
  it('draws and charges an image once when its first fetches reach both API nodes at once', async () => {
    const balance = async () =>
      (await json(await call(first, '/v1/account'), 200)).balance as number;
    const before = await balance();
    const made = await json(
      await call(first, '/v1/preview-links', {
        method: 'POST',
        json: {
          templateId: SOURCE,
          target: 'og',
          values: { headline: 'Một ảnh, một lần trả', price: 129000, photo: 'asset:product.jpg' },
          expiresInSeconds: 600,
        },
      }),
      201,
    );
    const fetchOn = async (node: ClusterNodeProcess) => {
      const res = await testFetch(`${node.url}${made.path}`);
      expect(res.status, node.url!).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const images = await Promise.all([first, second, first, second].map(fetchOn));
    for (const image of images.slice(1)) expect(image.equals(images[0]!)).toBe(true);
    expect(await balance()).toBe(before - 1);
    // Served from the object store afterwards, on either node, with no further charge.
    expect((await fetchOn(second)).equals(images[0]!)).toBe(true);
    expect(await balance()).toBe(before - 1);
  }, 120_000);
});

describe('a Redis switched to an evicting policy while the cluster runs', () => {
  it('makes nodes unhealthy and stops workers taking chunks until noeviction is back', async () => {
    const redis = new Redis(env.redis.url);
    const health = async () => {
      const res = await testFetch(`${first.url}/healthz`);
      return { status: res.status, text: await res.text() };
    };
    const until = async (done: () => Promise<boolean>) => {
      const deadline = Date.now() + 30_000;
      while (!(await done())) {
        expect(Date.now() < deadline).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    try {
      expect((await health()).status).toBe(200);
      await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await until(async () => (await health()).status === 503);
      expect((await health()).text).toMatch(/maxmemory-policy allkeys-lru/);
      await until(async () => /takes no chunk jobs/.test(worker.output()));

      const fields = await json(
        await call(first, `/v1/render-batches/template-fields?templateId=${SOURCE}`),
        200,
      );
      const batch = await json(
        await call(first, '/v1/render-batches', {
          method: 'POST',
          json: {
            templateId: SOURCE,
            sourceType: 'json-array',
            source: { records: [fields.sampleRow, fields.sampleRow] },
          },
        }),
        202,
      );
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const waiting = await json(await call(first, `/v1/render-batches/${batch.id}`), 200);
      expect(waiting.succeeded).toBe(0);

      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      await until(async () => (await health()).status === 200);
      await until(async () => {
        const state = await json(await call(first, `/v1/render-batches/${batch.id}`), 200);
        return state.status === 'succeeded';
      });
    } finally {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      redis.disconnect();
    }
  }, 90_000);
});

/** A request to a node with another key than the cluster's. */
function withKey(
  node: ClusterNodeProcess,
  secret: string,
  pathname: string,
  init: RequestInit & { json?: unknown } = {},
) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${secret}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return testFetch(`${node.url}${pathname}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
}

describe('tokens replayed across the API nodes of a cluster', () => {
  it('refuses a key on every node as soon as one node revokes it', async () => {
    const key = await json(
      await call(first, '/v1/api-keys', {
        method: 'POST',
        json: { name: 'revoked across nodes', scope: 'render' },
      }),
      201,
    );
    expect((await withKey(second, key.secret, '/v1/account')).status).toBe(200);
    expect((await call(first, `/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const node of [second, first]) {
      const res = await withKey(node, key.secret, '/v1/account');
      expect(res.status, node.url!).toBe(401);
    }
  });

  it('renders and charges once when one Idempotency-Key reaches both API nodes at once', async () => {
    const balance = async () =>
      (await json(await call(first, '/v1/account'), 200)).balance as number;
    const before = await balance();
    const body = {
      templateId: SOURCE,
      values: { headline: 'Một lần', price: 99000, photo: 'asset:product.jpg' },
      target: 'square',
      format: 'png',
    };
    const send = (node: ClusterNodeProcess) =>
      call(node, '/v1/render', {
        method: 'POST',
        json: body,
        headers: { 'idempotency-key': 'replayed-across-nodes-1' },
      });
    const answers = await Promise.all([first, second, first, second].map(send));
    const images: Buffer[] = [];
    for (const res of answers) {
      expect([200, 409], await res.clone().text()).toContain(res.status);
      if (res.status === 200) images.push(Buffer.from(await res.arrayBuffer()));
      else expect((await res.json()).code).toBe('idempotency-key-in-use');
    }
    expect(images.length).toBeGreaterThan(0);
    // Replayed once settled, on either node: the same bytes, no second charge.
    for (const node of [second, first]) {
      const res = await send(node);
      expect(res.status, node.url!).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBe('true');
      expect(Buffer.from(await res.arrayBuffer()).equals(images[0]!)).toBe(true);
    }
    expect(await balance()).toBe(before - 1);
    // The same key with another body is refused on the other node too.
    const other = await call(second, '/v1/render', {
      method: 'POST',
      json: { ...body, values: { headline: 'Khác', price: 1, photo: 'asset:product.jpg' } },
      headers: { 'idempotency-key': 'replayed-across-nodes-1' },
    });
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('idempotency-key-reused');
  }, 120_000);

  it('refuses a bundle link made on one node once another node deletes the batch', async () => {
    const created = await json(
      await call(first, '/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: SOURCE,
          target: 'square',
          format: 'png',
          sourceType: 'json-array',
          source: { records: [{ headline: 'A', price: 1, photo: 'asset:product.jpg' }] },
        },
      }),
      202,
    );
    await until(async () => {
      const batch = await json(await call(second, `/v1/render-batches/${created.id}`), 200);
      return !['queued', 'running'].includes(batch.status);
    });
    const link = await json(await call(first, `/v1/render-batches/${created.id}/bundle`), 200);
    expect((await testFetch(link.url.replace(first.url!, second.url!))).status).toBe(200);
    expect(
      (await call(second, `/v1/render-batches/${created.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    for (const node of [first, second]) {
      const res = await testFetch(link.url.replace(first.url!, node.url!));
      expect(res.status, node.url!).toBe(404);
    }
  }, 120_000);

  it('refuses a preview link on every node once the key that made it is revoked on one', async () => {
    const key = await json(
      await call(first, '/v1/api-keys', {
        method: 'POST',
        json: { name: 'preview maker', scope: 'render' },
      }),
      201,
    );
    const made = await json(
      await withKey(second, key.secret, '/v1/preview-links', {
        method: 'POST',
        json: {
          templateId: SOURCE,
          target: 'og',
          values: { headline: 'Rút lại', price: 1000, photo: 'asset:product.jpg' },
          expiresInSeconds: 600,
        },
      }),
      201,
    );
    expect((await call(second, `/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const node of [first, second]) {
      const res = await testFetch(`${node.url}${made.path}`);
      expect(res.status, node.url!).toBe(403);
    }
  }, 60_000);
});
