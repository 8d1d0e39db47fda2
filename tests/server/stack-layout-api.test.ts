import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * A workspace template with a stack through the API: refused in format 1 with the path and what
 * to change, saved and rendered once the template is format 2, its children moving with the
 * headline's length.
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

const stack = {
  kind: 'stack',
  id: 'copy',
  x: 60,
  y: 60,
  width: 960,
  height: 600,
  gap: 20,
  layers: [
    {
      kind: 'text',
      id: 'stacked-title',
      x: 0,
      y: 0,
      width: 960,
      height: 400,
      text: '{{headline}}',
      font: { family: 'Be Vietnam Pro', weight: 700 },
      size: 80,
      lineHeight: 1.25,
      colour: '#000000',
    },
    {
      kind: 'shape',
      id: 'marker',
      x: 0,
      y: 0,
      width: 200,
      height: 40,
      shape: 'rectangle',
      fill: '#FF0000',
    },
  ],
};

async function redTop(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let y = 0; y < info.height; y++) {
    for (let x = 60; x < 260; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i]! > 230 && data[i + 1]! < 30 && data[i + 2]! < 30) return y;
    }
  }
  return -1;
}

describe('stacks through the API', () => {
  it('are refused in a format 1 template, then saved and rendered in format 2', async () => {
    const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
      method: 'POST',
      json: {},
    });
    expect(fork.status).toBe(201);
    const created: Json = await fork.json();
    expect(created.template.schemaVersion).toBe(1);
    const square = created.template.layouts.square;
    const layouts = {
      ...created.template.layouts,
      square: { ...square, layers: [...square.layers, stack] },
    };
    const refused = await expectProblem(
      await server.api(`/v1/templates/${created.id}`, { method: 'PATCH', json: { layouts } }),
      422,
      'validation-failed',
    );
    const index = square.layers.length;
    expect(refused.errors).toContainEqual({
      path: `layouts.square.layers[${index}].kind`,
      message: expect.stringMatching(/needs schemaVersion 2/),
    });
    const saved = await server.api(`/v1/templates/${created.id}`, {
      method: 'PATCH',
      json: { layouts, schemaVersion: 2 },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const render = async (headline: string) => {
      const res = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: created.id, values: { ...VALUES, headline }, target: 'square' },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const short = await redTop(await render('Mug'));
    const long = await redTop(await render('A ceramic mug glazed by hand in our own workshop'));
    expect(short).toBeGreaterThan(60);
    // One line of 80 px at 1.25 is 100 px; the longer headline takes two lines or more.
    expect(long - short).toBeGreaterThanOrEqual(100 - 2);
  });
});
