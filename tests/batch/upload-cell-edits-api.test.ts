import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: InjectServer;
/** The template's other variables, fed its sample values. */
let constants: Record<string, { constant: unknown }>;
beforeAll(async () => {
  server = await buildInjectServer();
  const detail: Json = await (await server.api('/v1/catalog/tmpl_flash_sale_1111')).json();
  constants = Object.fromEntries(
    Object.entries(detail.sampleValues as Record<string, unknown>)
      .filter(([name]) => name !== 'productName' && name !== 'price')
      .map(([name, value]) => [name, { constant: value }]),
  );
});
afterAll(() => server.stop());

/** Three products; the second's price is no number. */
const CSV = 'name,price\nNồi chiên,1250000\nMáy xay,không rõ\nẤm đun,99000\n';

async function preflight(uploadId: string): Promise<Json> {
  const res = await server.api('/v1/render-batches/preflight', {
    method: 'POST',
    json: {
      templateId: 'tmpl_flash_sale_1111',
      target: 'square',
      sourceType: 'csv',
      source: { sourceRef: uploadId },
      bindings: { ...constants, productName: { field: 'name' }, price: { field: 'price' } },
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

describe('PUT /v1/uploads/{id}/cells', () => {
  it("changes the upload's copy of a cell: rows, preview and pre-flight read it, the file stays", async () => {
    const created: Json = await (await upload(server, Buffer.from(CSV), 'sale.csv')).json();
    const before = await preflight(created.id);
    expect(before.problems.map((p: Json) => p.rowIndex)).toContain(1);

    const res = await server.api(`/v1/uploads/${created.id}/cells`, {
      method: 'PUT',
      json: { rowIndex: 1, field: 'price', value: '450.000' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const edited: Json = await res.json();
    expect(edited.edits).toEqual([{ sheet: null, rowIndex: 1, field: 'price', value: '450.000' }]);
    expect(edited.preview[1].price).toBe('450.000');
    expect(edited.preview[0].price).toBe(created.preview[0].price);

    const rows: Json = await (await server.api(`/v1/uploads/${created.id}/rows`)).json();
    expect(rows.rows[1].cells.price).toBe('450.000');
    const after = await preflight(created.id);
    expect(after.problems.map((p: Json) => p.rowIndex)).not.toContain(1);
    expect(after.valid).toBe(before.valid + 1);

    // A second edit of the same cell replaces the first.
    await server.api(`/v1/uploads/${created.id}/cells`, {
      method: 'PUT',
      json: { rowIndex: 1, field: 'price', value: '460000' },
    });
    const again: Json = await (await server.api(`/v1/uploads/${created.id}`)).json();
    expect(again.edits).toHaveLength(1);
    expect(again.preview[1].price).toBe('460000');
  });

  it('refuses a cell that is not in the spreadsheet, naming the field', async () => {
    const created: Json = await (await upload(server, Buffer.from(CSV), 'sale.csv')).json();
    const res = await server.api(`/v1/uploads/${created.id}/cells`, {
      method: 'PUT',
      json: { rowIndex: 7, field: 'colour', value: 'x' },
    });
    expect(res.status).toBe(422);
    const problem: Json = await res.json();
    expect(problem.errors.map((p: Json) => p.path).sort()).toEqual(['field', 'rowIndex']);
  });
});
