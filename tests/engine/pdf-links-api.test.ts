import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { pdfLinks } from '../helpers/pdf-links.js';
import type { Json } from '../helpers/test-server.js';

/**
 * A layer's link through the API: a template whose link is not http, https or mailto is refused
 * at the layer's link, and a value that makes the link something else (another scheme, not a
 * URL, too long) is a 422 naming the value, before anything is drawn.
 */

let server: InjectServer;
let templateId: string;
let square: Json;

const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

const linked = (link: string) => ({
  kind: 'text',
  id: 'more',
  x: 60,
  y: 980,
  width: 500,
  height: 60,
  text: 'Xem thêm',
  size: 32,
  font: { family: 'Be Vietnam Pro' },
  colour: '#000000',
  link,
});

const withLayer = (layer: Json) => ({
  layouts: { square: { ...square, layers: [...square.layers, layer] } },
});

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
  const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
    method: 'POST',
    json: {},
  });
  expect(fork.status).toBe(201);
  const created: Json = await fork.json();
  square = created.template.layouts.square;
  templateId = created.id;
  const saved = await server.api(`/v1/templates/${templateId}`, {
    method: 'PATCH',
    json: {
      variables: [...created.template.variables, { name: 'site', type: 'text' }],
      ...withLayer(linked('{{site}}')),
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
});
afterAll(() => server.stop());

const render = (site: string, format = 'pdf') =>
  server.api('/v1/render', {
    method: 'POST',
    json: { templateId, target: 'square', format, values: { ...VALUES, site } },
  });

describe('layer links through the API', () => {
  it('render an allowed link into the PDF, and no link for an empty value', async () => {
    const res = await render('https://example.com/mua?sp=1');
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(pdfLinks(pdf).map((link) => link.uri)).toEqual(['https://example.com/mua?sp=1']);
    const empty = await render('');
    expect(pdfLinks(new Uint8Array(await empty.arrayBuffer()))).toEqual([]);
  });

  it('are a 422 at values.site for javascript:, a non-URL or an over-long link', async () => {
    for (const [site, message] of [
      [
        'javascript:alert(1)',
        'javascript: links are not allowed; use an http, https or mailto address',
      ],
      ['see our website', '"see our website" is not a link; use an http, https or mailto address'],
      [
        `https://example.com/${'a'.repeat(2000)}`,
        'the link is 2,020 characters long; the limit is 2,000',
      ],
    ] as const) {
      const problem = await expectProblem(await render(site), 422, 'validation-failed');
      expect(problem.errors).toEqual([{ path: 'values.site', message }]);
    }
    // A PNG has no links, but the same values are refused the same way.
    await expectProblem(await render('javascript:alert(1)', 'png'), 422, 'validation-failed');
  });

  it('refuse a template whose link is another scheme, at the layer’s link', async () => {
    const res = await server.api(`/v1/templates/${templateId}`, {
      method: 'PATCH',
      json: withLayer(linked('javascript:alert(1)')),
    });
    const problem = await expectProblem(res, 422);
    expect(problem.errors?.map((error) => error.path)).toEqual([
      `layouts.square.layers[${square.layers.length}].link`,
    ]);
  });
});
