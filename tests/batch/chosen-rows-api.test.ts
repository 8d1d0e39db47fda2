import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, upload, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATE = 'tmpl_flash_sale_1111';
let server: InjectServer;
/** The template's other variables, fed its sample values. */
let constants: Record<string, { constant: unknown }>;

beforeAll(async () => {
  server = await buildInjectServer({ openingCredits: 100 });
  const detail: Json = await (await server.api(`/v1/catalog/${TEMPLATE}`)).json();
  constants = Object.fromEntries(
    Object.entries(detail.sampleValues as Record<string, unknown>)
      .filter(([name]) => name !== 'productName' && name !== 'price')
      .map(([name, value]) => [name, { constant: value }]),
  );
});
afterAll(() => server.stop());

/** Five products; `note` holds a number on rows 0, 2 and 4 only (the wrong column for price). */
const CSV = [
  'name,price,note',
  'Nồi chiên,1250000,1250000',
  'Máy xay,890000,giảm giá',
  'Ấm đun,99000,99000',
  'Quạt,450000,hết hàng',
  'Bàn ủi,320000,320000',
].join('\n');

const account = async (on: InjectServer = server) =>
  (await (await on.api('/v1/account')).json()) as { balance: number; heldCredits: number };

async function debitsFor(batchId: string): Promise<number> {
  const page: Json = await (await server.api('/v1/account/ledger?kind=debit&limit=500')).json();
  return page.entries.filter((e: Json) => e.batchId === batchId).length;
}

async function uploadCsv(on: InjectServer = server): Promise<string> {
  const uploaded: Json = await (
    await upload(on, Buffer.from(CSV), 'products.csv', 'text/csv')
  ).json();
  return uploaded.id as string;
}

function request(sourceRef: string, priceField: string, rows?: number[]) {
  return {
    templateId: TEMPLATE,
    target: 'square',
    sourceType: 'csv',
    source: { sourceRef, ...(rows ? { rows } : {}) },
    bindings: { ...constants, productName: { field: 'name' }, price: { field: priceField } },
  };
}

describe('a batch of some rows of an upload (source.rows)', () => {
  it('reruns the failed rows with a fixed mapping: counts, renders and charges only them, under their own row numbers', async () => {
    const sourceRef = await uploadCsv();
    const first = await createBatch(server, request(sourceRef, 'note'));
    expect(await waitForBatch(server, first.id)).toMatchObject({ succeeded: 3, failed: 2 });
    const failed = (await fullManifest(server, first.id))
      .filter((row) => row.status === 'failed')
      .map((row) => row.rowIndex);
    expect(failed).toEqual([1, 3]);

    const fixed = request(sourceRef, 'price', failed);
    const check: Json = await (
      await server.api('/v1/render-batches/preflight', { method: 'POST', json: fixed })
    ).json();
    expect([check.total, check.valid, check.cost]).toEqual([2, 2, 2]);

    const before = await account();
    const rerun = await createBatch(server, fixed);
    expect(rerun.total).toBe(2);
    const done: Json = await waitForBatch(server, rerun.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      total: 2,
      succeeded: 2,
      failed: 0,
      someRows: true,
    });
    expect((await waitForBatch(server, first.id)).someRows).toBeUndefined();
    expect(await account()).toMatchObject({ balance: before.balance - 2, heldCredits: 0 });
    expect(await debitsFor(rerun.id)).toBe(2);
    const rows = await fullManifest(server, rerun.id);
    // The spreadsheet's own rows: index, line (header is line 1) and the file named after the row.
    expect(rows.map((row) => [row.rowIndex, row.line, row.fileName, row.status])).toEqual([
      [1, 3, '2.png', 'succeeded'],
      [3, 5, '4.png', 'succeeded'],
    ]);
  });

  it('keeps the row numbers of a failing chosen row, and a replay reads the same rows', async () => {
    const sourceRef = await uploadCsv();
    const created = await createBatch(server, request(sourceRef, 'note', [2, 3]));
    const done: Json = await waitForBatch(server, created.id);
    expect(done).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    const rows = await fullManifest(server, created.id);
    expect(rows.map((row) => [row.rowIndex, row.line, row.status])).toEqual([
      [2, 4, 'succeeded'],
      [3, 5, 'failed'],
    ]);
    const replayed = await server.api(`/v1/render-batches/${created.id}/replay`, {
      method: 'POST',
    });
    expect(replayed.status).toBe(202);
    const again: Json = await waitForBatch(server, created.id);
    expect(again).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    expect((await fullManifest(server, created.id)).map((row) => row.rowIndex)).toEqual([2, 3]);
  });

  it('holds credits for the chosen rows only: a balance short of the whole sheet covers them', async () => {
    const poor = await buildInjectServer({ openingCredits: 2 });
    try {
      const sourceRef = await uploadCsv(poor);
      const created = await createBatch(poor, request(sourceRef, 'price', [0, 4]));
      expect(created.status).not.toBe('failed');
      expect(await waitForBatch(poor, created.id)).toMatchObject({ total: 2, succeeded: 2 });
      expect(await account(poor)).toMatchObject({ balance: 0, heldCredits: 0 });
    } finally {
      await poor.stop();
    }
  });

  it('draws each chosen row in every size of a several-sizes batch, numbered from its own row', async () => {
    const sourceRef = await uploadCsv();
    const created = await createBatch(server, {
      ...request(sourceRef, 'price', [3]),
      target: undefined,
      targets: ['square', 'story'],
    });
    expect(created.total).toBe(2);
    expect(await waitForBatch(server, created.id)).toMatchObject({ total: 2, succeeded: 2 });
    const rows = await fullManifest(server, created.id);
    // Row index 3 in two sizes: batch rows 3 × 2 + 0 and 3 × 2 + 1.
    expect(rows.map((row) => [row.rowIndex, row.line, row.fileName])).toEqual([
      [6, 5, '4-square.png'],
      [7, 5, '4-story.png'],
    ]);
  });

  it('refuses rows out of order, named twice, past the sheet, empty, or with inline records', async () => {
    const sourceRef = await uploadCsv();
    const refused = async (body: unknown, url = '/v1/render-batches') => {
      const res = await server.api(url, { method: 'POST', json: body });
      expect(res.status).toBe(422);
      return ((await res.json()) as Json).errors as { path: string; message: string }[];
    };
    expect(await refused(request(sourceRef, 'price', [3, 1]))).toEqual([
      { path: 'source.rows[1]', message: 'rows must be sorted: 1 comes after 3' },
    ]);
    expect(await refused(request(sourceRef, 'price', [1, 1]))).toEqual([
      { path: 'source.rows[1]', message: 'row 1 is named twice: name each row once' },
    ]);
    const past = [
      {
        path: 'source.rows[1]',
        message: 'the sheet has 5 data rows (indexes 0–4); row 5 is not in it',
      },
    ];
    expect(await refused(request(sourceRef, 'price', [0, 5]))).toEqual(past);
    expect(
      await refused(request(sourceRef, 'price', [0, 5]), '/v1/render-batches/preflight'),
    ).toEqual(past);
    expect((await refused(request(sourceRef, 'price', []))).map((e) => e.path)).toContain(
      'source.rows',
    );
    const inline = await refused({
      templateId: TEMPLATE,
      sourceType: 'json-array',
      source: { records: [{ name: 'x' }], rows: [0] },
    });
    expect(inline.length).toBeGreaterThan(0);
    expect((await account()).heldCredits).toBe(0);
  });

  it('is in the OpenAPI document', async () => {
    const doc = JSON.stringify(await (await server.api('/v1/openapi.json')).json());
    expect(doc).toContain("Only these rows of the upload's sheet");
  });
});
