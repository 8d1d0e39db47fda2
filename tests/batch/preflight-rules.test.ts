import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * Pre-flight reports the layout rules a user template breaks after fitting, as warnings with a
 * code and a message that says what to change; the rows stay valid.
 */

let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
});
afterAll(() => server.stop());

const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

describe('pre-flight layout rules', () => {
  it('warns with rule codes about text drawn too small, naming the layer and the rows', async () => {
    const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
      method: 'POST',
      json: {},
    });
    expect(fork.status).toBe(201);
    const created: Json = await fork.json();
    const square = created.template.layouts.square;
    const tiny = {
      kind: 'text',
      id: 'fine-print',
      x: 100,
      y: 980,
      width: 880,
      height: 40,
      text: '{{headline}} — terms apply',
      font: { family: 'Be Vietnam Pro', weight: 400 },
      size: 16,
      minSize: 16,
      colour: '#000000',
    };
    const saved = await server.api(`/v1/templates/${created.id}`, {
      method: 'PATCH',
      json: {
        layouts: {
          ...created.template.layouts,
          square: { ...square, layers: [...square.layers, tiny] },
        },
      },
    });
    expect(saved.status).toBe(200);
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: {
        templateId: created.id,
        target: 'square',
        format: 'png',
        sourceType: 'json-array',
        source: { records: [VALUES, { ...VALUES, headline: 'Tea cup' }] },
      },
    });
    expect(res.status).toBe(200);
    const result: Json = await res.json();
    expect(result.invalid).toBe(0);
    const warning = result.warnings.find((w: Json) => w.code === 'rule.text-too-small');
    expect(warning).toMatchObject({ path: 'layers.fine-print', rows: 2 });
    expect(warning.message).toMatch(/drawn at 16 px; square needs at least 24 px/);
    expect(warning.message).toMatch(/rows 1, 2/);
  });
});
