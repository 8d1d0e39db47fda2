import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * A layer's visibleWhen rules may hide the only layer that draws a required value: the row
 * renders, without it. Pre-flight names the variable, the layers and the rows.
 */

let server: InjectServer;
let templateId: string;
let square: Json;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
  const created: Json = await (
    await server.api('/v1/catalog/tmpl_product_promo/fork', { method: 'POST', json: {} })
  ).json();
  templateId = created.id;
  square = created.template.layouts.square;
});
afterAll(() => server.stop());

const VALUES = { photo: 'asset:product.jpg', headline: 'Ceramic mug', price: 24 };

/** The square layout with the headline layer shown by `rule`, and `more` layers after it. */
async function saveHeadlineRule(rule: unknown, more: Json[] = []): Promise<Response> {
  const layers = square.layers.map((layer: Json) =>
    layer.id === 'headline' ? { ...layer, visibleWhen: rule } : layer,
  );
  return server.api(`/v1/templates/${templateId}`, {
    method: 'PATCH',
    json: { layouts: { square: { ...square, layers: [...layers, ...more] } } },
  });
}

async function preflight(records: Json[]): Promise<Json> {
  const res = await server.api('/v1/render-batches/preflight', {
    method: 'POST',
    json: { templateId, target: 'square', sourceType: 'json-array', source: { records } },
  });
  expect(res.status).toBe(200);
  return res.json();
}

const CHEAP_OR_DISCOUNTED = {
  any: [
    { var: 'price', lt: 100 },
    {
      all: [
        { var: 'discount', gt: 0 },
        { var: 'discountLabel', in: ['Sale', 'Tết'] },
      ],
    },
  ],
};

describe('pre-flight and rules that hide a required layer', () => {
  it('warns with required-layer-hidden for the rows whose rules hide every layer drawing a required value', async () => {
    expect((await saveHeadlineRule(CHEAP_OR_DISCOUNTED)).status).toBe(200);
    const result = await preflight([
      VALUES,
      { ...VALUES, price: 500 },
      { ...VALUES, price: 500, discount: 10, discountLabel: 'Tết' },
      { ...VALUES, price: 900, discount: 10, discountLabel: 'Hè' },
    ]);
    expect(result.invalid).toBe(0);
    expect(result.warnings.filter((w: Json) => w.code === 'required-layer-hidden')).toEqual([
      {
        code: 'required-layer-hidden',
        path: 'values.headline',
        message:
          '"headline" is required, but the visibleWhen rules of the layer that draws it (headline) hide it: the image leaves it out (rows 2, 4)',
        rows: 2,
      },
    ]);
  });

  it('stays quiet while another layer still draws the value', async () => {
    const other = {
      kind: 'text',
      id: 'headline-dear',
      x: 80,
      y: 80,
      width: 600,
      height: 80,
      text: '{{headline}}',
      font: { family: 'Be Vietnam Pro', weight: 700 },
      size: 40,
      colour: '#000000',
      visibleWhen: { var: 'price', between: [100, 1000] },
    };
    expect((await saveHeadlineRule(CHEAP_OR_DISCOUNTED, [other])).status).toBe(200);
    const result = await preflight([VALUES, { ...VALUES, price: 500 }]);
    expect(result.warnings.filter((w: Json) => w.code === 'required-layer-hidden')).toEqual([]);
  });

  it('refuses a rule naming no variable, with the path of the nested condition', async () => {
    const res = await saveHeadlineRule({
      any: [{ var: 'price', lt: 1 }, { all: [{ var: 'nope', notEmpty: true }] }],
    });
    expect(res.status).toBe(422);
    const body: Json = await res.json();
    expect(body.errors).toEqual([
      {
        path: 'layouts.square.layers[2].visibleWhen.any[1].all[0].var',
        message: 'no variable is named "nope"; declare it under variables first',
      },
    ]);
  });
});
