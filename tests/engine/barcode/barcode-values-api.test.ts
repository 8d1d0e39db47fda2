import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../../helpers/batch-helpers.js';
import { expectProblem } from '../../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../../helpers/inject-server.js';
import type { Json } from '../../helpers/test-server.js';

/**
 * A value its barcode cannot encode is refused before drawing, naming the variable and saying
 * why: a 422 for one render, a failed row in a batch and in its pre-flight.
 */

let server: InjectServer;
let templateId: string;

const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
  const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
    method: 'POST',
    json: {},
  });
  expect(fork.status).toBe(201);
  const created: Json = await fork.json();
  const square = created.template.layouts.square;
  const code = {
    kind: 'barcode',
    id: 'ean',
    x: 700,
    y: 860,
    width: 340,
    height: 180,
    symbology: 'ean13',
    value: '{{barcode}}',
  };
  const saved = await server.api(`/v1/templates/${created.id}`, {
    method: 'PATCH',
    json: {
      variables: [...created.template.variables, { name: 'barcode', type: 'text' }],
      layouts: {
        ...created.template.layouts,
        square: { ...square, layers: [...square.layers, code] },
      },
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  templateId = created.id;
});
afterAll(() => server.stop());

const render = (barcode: string) =>
  server.api('/v1/render', {
    method: 'POST',
    json: { templateId, target: 'square', values: { ...VALUES, barcode } },
  });

describe('barcode values', () => {
  it('render with the check digit added, or given and right', async () => {
    expect((await render('590123412345')).status).toBe(200);
    expect((await render('5901234123457')).status).toBe(200);
  });

  it('are a 422 naming values.barcode for a wrong check digit, length or character', async () => {
    const check = await expectProblem(await render('5901234123456'), 422, 'barcode-invalid');
    expect(check.errors).toEqual([
      {
        path: 'values.barcode',
        code: 'barcode-invalid',
        message:
          '"5901234123456" is not a valid EAN-13: its check digit should be 7, not 6. Leave the last digit out to have it computed',
      },
    ]);
    const length = await expectProblem(await render('59012341'), 422, 'barcode-invalid');
    expect(length.errors?.[0]?.message).toBe(
      '"59012341" is not an EAN-13: it has 8 digits; an EAN-13 has 12 digits (13 with its check digit)',
    );
    const letters = await expectProblem(await render('59012341234X'), 422, 'barcode-invalid');
    expect(letters.detail).toContain('values.barcode: "59012341234X" is not an EAN-13');
    expect(letters.errors?.[0]?.message).toContain('it may hold digits only');
  });

  it('fail their own rows in a pre-flight and in a batch, the others valid', async () => {
    const records = [
      { ...VALUES, barcode: '590123412345' },
      { ...VALUES, barcode: '5901234123456' },
      { ...VALUES, barcode: '123' },
    ];
    const body = { templateId, target: 'square', format: 'png', sourceType: 'json-array' };
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: { ...body, source: { records } },
    });
    expect(res.status).toBe(200);
    const result: Json = await res.json();
    expect(result).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(result.problems.map((p: Json) => [p.rowIndex, p.errors[0].path])).toEqual([
      [1, 'values.barcode'],
      [2, 'values.barcode'],
    ]);
    expect(result.problems[1].errors[0].message).toContain('it has 3 digits');

    const created = await createBatch(server, { ...body, source: { records } });
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({ total: 3, succeeded: 1, failed: 2 });
    const failed = (await fullManifest(server, created.id)).filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.rowIndex)).toEqual([1, 2]);
    expect(failed[0].error).toContain('values.barcode: "5901234123456" is not a valid EAN-13');
  });
});
