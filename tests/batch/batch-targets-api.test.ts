import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, upload, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATE = 'tmpl_flash_sale_1111';
let server: InjectServer;
let sample: Record<string, unknown>;

beforeAll(async () => {
  server = await buildInjectServer();
  const detail: Json = await (await server.api(`/v1/catalog/${TEMPLATE}`)).json();
  sample = detail.sampleValues;
});
afterAll(() => server.stop());

const balance = async () =>
  ((await (await server.api('/v1/account')).json()) as { balance: number }).balance;

describe('several sizes from one run (targets)', () => {
  it('draws every row in each layout, one credit per image, files named {name}-{layout}', async () => {
    const request = {
      templateId: TEMPLATE,
      targets: ['square', 'story'],
      sourceType: 'json-array',
      source: {
        records: [
          { ...sample, productName: 'Nồi chiên' },
          { ...sample, productName: 'Máy xay' },
        ],
      },
      fileNamePattern: '{productName}',
    };
    const check: Json = await (
      await server.api('/v1/render-batches/preflight', { method: 'POST', json: request })
    ).json();
    expect([check.total, check.images, check.cost]).toEqual([2, 4, 4]);

    const before = await balance();
    const created = await createBatch(server, request);
    const done = await waitForBatch(server, created.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      total: 4,
      succeeded: 4,
      targets: ['square', 'story'],
    });
    expect(await balance()).toBe(before - 4);
    const rows = await fullManifest(server, created.id);
    expect(rows.map((r) => r.fileName)).toEqual([
      'Nồi chiên-square.png',
      'Nồi chiên-story.png',
      'Máy xay-square.png',
      'Máy xay-story.png',
    ]);
    // Each image has its layout's size.
    const sizes = [];
    for (const row of [rows[0]!, rows[1]!]) {
      const res = await server.api(`/v1/outputs/${row.outputKey}`);
      const png = Buffer.from(await res.arrayBuffer());
      sizes.push([png.readUInt32BE(16), png.readUInt32BE(20)]);
    }
    expect(sizes).toEqual([
      [1080, 1080],
      [1080, 1920],
    ]);
  });

  it('reads a spreadsheet once per layout, unnamed rows as {row}-{layout}', async () => {
    const fields = Object.keys(sample).filter((k) => typeof sample[k] !== 'object');
    const csv = [
      fields.join(','),
      fields.map((f) => JSON.stringify(String(sample[f]))).join(','),
    ].join('\n');
    const uploaded: Json = await (await upload(server, Buffer.from(csv), 'sale.csv')).json();
    const created = await createBatch(server, {
      templateId: TEMPLATE,
      targets: ['square', 'portrait'],
      sourceType: 'csv',
      source: { sourceRef: uploaded.id },
      bindings: Object.fromEntries(fields.map((f) => [f, { field: f }])),
    });
    const done = await waitForBatch(server, created.id);
    expect(done).toMatchObject({ total: 2, succeeded: 2 });
    const rows = await fullManifest(server, created.id);
    expect(rows.map((r) => r.fileName)).toEqual(['1-square.png', '1-portrait.png']);
  });

  it('refuses targets with target, an unknown layout, or one layout named twice', async () => {
    const base = {
      templateId: TEMPLATE,
      sourceType: 'json-array',
      source: { records: [sample] },
    };
    const refused = async (body: unknown) => {
      const res = await server.api('/v1/render-batches', { method: 'POST', json: body });
      expect(res.status).toBe(422);
      return ((await res.json()) as Json).errors.map((e: Json) => e.path);
    };
    expect(await refused({ ...base, target: 'square', targets: ['square', 'story'] })).toEqual([
      'target',
    ]);
    expect(await refused({ ...base, targets: ['square', 'nope'] })).toEqual(['targets[1]']);
    expect(await refused({ ...base, targets: ['square', 'square'] })).toEqual(['targets']);
  });

  it('is in the OpenAPI document', async () => {
    const doc = JSON.stringify(await (await server.api('/v1/openapi.json')).json());
    expect(doc).toContain('Several sizes from one run');
  });
});
