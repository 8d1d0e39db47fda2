import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, upload, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: InjectServer;
/** The template's other variables, fed its sample values. */
let constants: Record<string, { constant: unknown }>;
let sample: Record<string, unknown>;
beforeAll(async () => {
  server = await buildInjectServer({ openingCredits: 100 });
  const detail: Json = await (await server.api('/v1/catalog/tmpl_flash_sale_1111')).json();
  sample = detail.sampleValues as Record<string, unknown>;
  constants = Object.fromEntries(
    Object.entries(sample)
      .filter(([name]) => name !== 'productName' && name !== 'price')
      .map(([name, value]) => [name, { constant: value }]),
  );
});
afterAll(() => server.stop());

describe("the manifest names each row's spreadsheet line", () => {
  it('gives a spreadsheet row its line (the header is line 1), so a failed row can name its cell', async () => {
    // A blank line between the products: the third product sits on line 5, not 4.
    const csv = 'name,price\nNồi chiên,1250000\nMáy xay,không rõ\n\nẤm đun,99000\n';
    const uploaded: Json = await (
      await upload(server, Buffer.from(csv), 'products.csv', 'text/csv')
    ).json();
    const batch = await createBatch(server, {
      templateId: 'tmpl_flash_sale_1111',
      target: 'square',
      sourceType: 'csv',
      source: { sourceRef: uploaded.id },
      bindings: { ...constants, productName: { field: 'name' }, price: { field: 'price' } },
    });
    await waitForBatch(server, batch.id);
    const rows = await fullManifest(server, batch.id);
    expect(rows.map((row) => [row.rowIndex, row.line, row.status])).toEqual([
      [0, 2, 'succeeded'],
      [1, 3, 'failed'],
      [2, 5, 'succeeded'],
    ]);
    const failed: Json = await (
      await server.api(`/v1/render-batches/${batch.id}/renders?status=failed`)
    ).json();
    expect(failed.rows[0]).toMatchObject({ rowIndex: 1, line: 3 });
  });

  it('gives inline records no line', async () => {
    const batch = await createBatch(server, {
      templateId: 'tmpl_flash_sale_1111',
      target: 'square',
      sourceType: 'json-array',
      source: { records: [sample] },
    });
    await waitForBatch(server, batch.id);
    const rows = await fullManifest(server, batch.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.line).toBeNull();
  });
});
