import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAWN_BOXES_HEADER, parseDrawnBoxes } from '../../shared/drawn-boxes.js';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { uiSessionHeaders } from '../helpers/ui-session.js';

const SOURCE = 'tmpl_product_promo';
const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
});
afterAll(() => server.stop());

const sha = (bytes: ArrayBuffer | Buffer) =>
  crypto
    .createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');

async function fork(id = SOURCE, body: unknown = {}): Promise<Json> {
  const res = await server.api(`/v1/catalog/${id}/fork`, { method: 'POST', json: body });
  expect(res.status).toBe(201);
  return res.json();
}

function patch(id: string, body: unknown) {
  return server.api(`/v1/templates/${id}`, { method: 'PATCH', json: body });
}

async function render(
  templateId: string,
  values: unknown = VALUES,
  target = 'square',
  output: Json = {},
) {
  const res = await server.api('/v1/render', {
    method: 'POST',
    json: { templateId, values, target, ...output },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The template document with the headline layer of `ratio` changed by `edit`. */
function withHeadline(template: Json, edit: (layer: Json) => void, ratio = 'square'): Json {
  const layouts = structuredClone(template.layouts);
  edit(layouts[ratio].layers.find((l: Json) => l.id === 'headline'));
  return layouts;
}

describe('forking', () => {
  it('copies a built-in template into an editable wtpl_ template at version 1', async () => {
    const created = await fork();
    expect(created.id).toMatch(/^wtpl_[a-z0-9]+$/);
    expect(created).toMatchObject({
      forkedFrom: SOURCE,
      version: 1,
      name: 'Product promotion (copy)',
    });
    expect(created.template.id).toBe(created.id);
    expect(created.ratios).toEqual(['square', 'portrait', 'story', 'landscape', 'og']);
    expect(created.thumbnail).toContain(`/v1/thumbnails/${created.id}/square.png`);
    const thumbnail = await server.fetch(created.thumbnail);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
  });

  it('takes a name, and forks a workspace template too', async () => {
    const first = await fork(SOURCE, { name: 'Shop promo' });
    expect(first.name).toBe('Shop promo');
    const second = await fork(first.id);
    expect(second).toMatchObject({ forkedFrom: first.id, name: 'Shop promo (copy)' });
  });

  it('answers 404 for an unknown template', async () => {
    await expectProblem(
      await server.api('/v1/catalog/tmpl_no_such_thing/fork', { method: 'POST', json: {} }),
      404,
      'not-found',
    );
  });

  it('renders a fresh fork byte-identical to its built-in source', async () => {
    const created = await fork();
    expect(sha(await render(created.id))).toBe(sha(await render(SOURCE)));
  });

  it('forks every built-in template, fixed artwork included, and each fork renders like its source', async () => {
    const catalog: Json[] = await (await server.api('/v1/catalog')).json();
    expect(catalog.length).toBeGreaterThanOrEqual(24);
    for (const item of catalog) {
      const created = await fork(item.id);
      const values = created.template.sampleValues;
      const [ratio] = created.ratios;
      // The server has two render threads: the fork and its source draw side by side, at a
      // quarter of the size (a fork missing its artwork or a font draws differently at any size;
      // golden.test.ts pins the full-size drawing).
      const [fromFork, fromSource] = await Promise.all([
        render(created.id, values, ratio, { scale: 0.25 }),
        render(item.id, values, ratio, { scale: 0.25 }),
      ]);
      expect(sha(fromFork), item.id).toBe(sha(fromSource));
    }
  });
});

describe('listing and reading', () => {
  it('lists workspace templates with the catalog item shape and filters', async () => {
    const created = await fork(SOURCE, { name: 'Listing probe Đồng' });
    const list: Json[] = await (await server.api('/v1/templates')).json();
    const item = list.find((i) => i.id === created.id);
    expect(item).toMatchObject({
      name: 'Listing probe Đồng',
      category: created.category,
      ratios: created.ratios,
      version: 1,
      forkedFrom: SOURCE,
    });
    const found: Json[] = await (await server.api('/v1/templates?q=probe%20dong')).json();
    expect(found.map((i) => i.id)).toEqual([created.id]);
    const catalog: Json[] = await (await server.api('/v1/catalog')).json();
    expect(catalog.some((i) => i.id.startsWith('wtpl_'))).toBe(false);
  });

  it('serves a wtpl_ id from GET /v1/catalog/{id} like a built-in', async () => {
    const created = await fork();
    const res = await server.api(`/v1/catalog/${created.id}`);
    expect(res.status).toBe(200);
    const detail = await res.json();
    expect(detail.id).toBe(created.id);
    expect(detail.variables.map((v: Json) => v.name)).toContain('headline');
  });
});

describe('editing', () => {
  it('saves each edit as a new version that renders the change', async () => {
    const created = await fork();
    const before = await render(created.id);
    const res = await patch(created.id, {
      layouts: withHeadline(created.template, (l) => {
        l.colour = '#C0392B';
        l.y += 40;
      }),
    });
    expect(res.status).toBe(200);
    const saved = await res.json();
    expect(saved.version).toBe(2);
    const headline = saved.template.layouts.square.layers.find((l: Json) => l.id === 'headline');
    expect(headline).toMatchObject({
      colour: '#C0392B',
      y: created.template.layouts.square.layers.find((l: Json) => l.id === 'headline').y + 40,
    });
    const after = await render(created.id);
    expect(sha(after)).not.toBe(sha(before));
    expect(sha(await render(created.id))).toBe(sha(after));
    // A red headline: the pixel at the middle of its first line is reddish now.
    const { data, info } = await sharp(after).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (data[i]! > 150 && data[i + 1]! < 90 && data[i + 2]! < 80) red++;
    }
    expect(red).toBeGreaterThan(500);
  });

  it('renames and retags without touching the layouts', async () => {
    const created = await fork();
    const saved = await (await patch(created.id, { name: 'Renamed', tags: ['mine'] })).json();
    expect(saved).toMatchObject({ name: 'Renamed', version: 2 });
    expect(saved.template.tags).toEqual(['mine']);
    expect(saved.template.layouts).toEqual(created.template.layouts);
  });

  it('refuses an invalid layer with 422 and the path of the problem, keeping the version', async () => {
    const created = await fork();
    const layouts = withHeadline(created.template, (l) => {
      l.width = -5;
    });
    const body = await expectProblem(
      await patch(created.id, { layouts }),
      422,
      'validation-failed',
    );
    const index = created.template.layouts.square.layers.findIndex(
      (l: Json) => l.id === 'headline',
    );
    expect(body.errors).toContainEqual(
      expect.objectContaining({ path: `layouts.square.layers[${index}].width` }),
    );
    const current = await (await server.api(`/v1/templates/${created.id}`)).json();
    expect(current.version).toBe(1);
  });

  it('refuses a canvas larger than 5000 px a side, at the path of the size', async () => {
    const created = await fork();
    const layouts = structuredClone(created.template.layouts);
    layouts.square.width = 100_000;
    const body = await expectProblem(
      await patch(created.id, { layouts }),
      422,
      'validation-failed',
    );
    expect(body.errors).toContainEqual(expect.objectContaining({ path: 'layouts.square.width' }));
  });

  it("refuses a layout that is not its ratio's canvas size, at the path of the size", async () => {
    const created = await fork();
    const layouts = structuredClone(created.template.layouts);
    layouts.square.width = 2480;
    layouts.square.height = 3508;
    const body = await expectProblem(
      await patch(created.id, { layouts }),
      422,
      'validation-failed',
    );
    expect(body.errors).toEqual([
      {
        path: 'layouts.square.width',
        message: expect.stringContaining('a square layout is 1080 × 1080 px, not 2480 × 3508'),
      },
    ]);
    const current = await (await server.api(`/v1/templates/${created.id}`)).json();
    expect(current.version).toBe(1);
  });

  it('refuses a {{placeholder}} that names no variable, at the path of the text', async () => {
    const created = await fork();
    const index = created.template.layouts.square.layers.findIndex(
      (l: Json) => l.id === 'headline',
    );
    const layouts = withHeadline(created.template, (l) => {
      l.text = '{{headline}} {{headlin}}';
    });
    const body = await expectProblem(
      await patch(created.id, { layouts }),
      422,
      'validation-failed',
    );
    expect(body.errors).toEqual([
      {
        path: `layouts.square.layers[${index}].text`,
        message: expect.stringContaining('{{headlin}} names no variable'),
      },
    ]);
  });

  it('refuses sample text a bundled font cannot draw, naming the characters', async () => {
    const created = await fork();
    const sampleValues = { ...created.template.sampleValues, headline: 'Καλημέρα' };
    const body = await expectProblem(
      await patch(created.id, { sampleValues }),
      422,
      'validation-failed',
    );
    expect(body.detail).toMatch(/cannot draw "Κ", "α"/);
    expect(body.errors?.[0]?.path).toMatch(/^layouts\.\w+\.layers\[\d+\]\.font\.family$/);
  });

  it("refuses a sample image that is not one of the template's own files", async () => {
    const created = await fork();
    for (const photo of ['/etc/passwd', 'asset:../../../render-desk.db', 'asset:missing.jpg']) {
      const body = await expectProblem(
        await patch(created.id, { sampleValues: { ...created.template.sampleValues, photo } }),
        422,
        'validation-failed',
      );
      expect(body.errors).toEqual([
        { path: 'sampleValues.photo', message: expect.stringContaining('sample image') },
      ]);
    }
  });

  it('refuses a binding to an undeclared or ill-typed variable, naming the path', async () => {
    const created = await fork();
    const index = created.template.layouts.square.layers.findIndex(
      (l: Json) => l.id === 'headline',
    );
    let body = await expectProblem(
      await patch(created.id, {
        layouts: withHeadline(created.template, (l) => {
          l.colour = { var: 'nope' };
        }),
      }),
      422,
      'validation-failed',
    );
    expect(body.errors).toContainEqual({
      path: `layouts.square.layers[${index}].colour.var`,
      message: expect.stringContaining('no variable is named "nope"'),
    });
    body = await expectProblem(
      await patch(created.id, {
        layouts: withHeadline(created.template, (l) => {
          l.colour = { var: 'headline' };
        }),
      }),
      422,
      'validation-failed',
    );
    expect(body.errors![0]!.message).toContain('is a text variable');
  });

  it('accepts a new variable bound to a layer property', async () => {
    const created = await fork();
    const variables = [
      ...created.template.variables,
      { name: 'headlineColour', type: 'colour', label: 'Headline colour', default: '#1F6F43' },
    ];
    const layouts = withHeadline(created.template, (l) => {
      l.colour = { var: 'headlineColour' };
    });
    const res = await patch(created.id, { variables, layouts });
    expect(res.status).toBe(200);
    const green = await render(created.id, { ...VALUES, headlineColour: '#1F6F43' });
    const blue = await render(created.id, { ...VALUES, headlineColour: '#1F3A93' });
    expect(sha(green)).not.toBe(sha(blue));
    expect(sha(await render(created.id))).toBe(sha(green)); // the default
  });

  it('refuses to change the id or unknown properties', async () => {
    const created = await fork();
    const body = await expectProblem(
      await patch(created.id, { id: 'wtpl_other', colour: 1 }),
      422,
      'validation-failed',
    );
    expect(body.errors!.map((e) => e.path).sort()).toEqual(['colour', 'id']);
  });

  it('answers 409 version-conflict when the edit was made on an old version', async () => {
    const created = await fork();
    expect((await patch(created.id, { name: 'First', baseVersion: 1 })).status).toBe(200);
    await expectProblem(
      await patch(created.id, { name: 'Second', baseVersion: 1 }),
      409,
      'version-conflict',
    );
  });

  it('refuses an edit of a built-in template', async () => {
    await expectProblem(await patch(SOURCE, { name: 'x' }), 404, 'not-found');
  });
});

describe('a wtpl_ id anywhere a tmpl_ id is accepted', () => {
  it('works in template-fields and pre-flight', async () => {
    const created = await fork();
    const fields = await server.api(`/v1/render-batches/template-fields?templateId=${created.id}`);
    expect(fields.status).toBe(200);
    expect((await fields.json()).templateId).toBe(created.id);
    const preflight = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: {
        templateId: created.id,
        target: 'square',
        format: 'png',
        sourceType: 'json-array',
        source: { records: [VALUES] },
      },
    });
    expect(preflight.status).toBe(200);
    expect((await preflight.json()).templateId).toBe(created.id);
  });

  it('runs a batch that keeps the version it started with while the template is edited', async () => {
    const created = await fork();
    const v1 = await render(created.id);
    const records = Array.from({ length: 6 }, () => VALUES);
    const batch = await createBatch(server, {
      templateId: created.id,
      target: 'square',
      format: 'png',
      sourceType: 'json-array',
      source: { records },
    });
    const edit = await patch(created.id, {
      layouts: withHeadline(created.template, (l) => {
        l.colour = '#C0392B';
      }),
    });
    expect(edit.status).toBe(200);
    const done = await waitForBatch(server, batch.id);
    expect(done).toMatchObject({ status: 'succeeded', templateVersion: 1 });
    for (const row of await fullManifest(server, batch.id)) {
      const output = await server.api(`/v1/outputs/${row.outputKey}`);
      expect(sha(await output.arrayBuffer())).toBe(sha(v1));
    }
    // Replaying later still renders the pinned version.
    expect(sha(await render(created.id))).not.toBe(sha(v1));
  });
});

describe('deleting', () => {
  it('removes the template from every route; a second delete is 404', async () => {
    const created = await fork();
    expect((await server.api(`/v1/templates/${created.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await expectProblem(await server.api(`/v1/templates/${created.id}`), 404, 'not-found');
    await expectProblem(await server.api(`/v1/catalog/${created.id}`), 404, 'not-found');
    await expectProblem(
      await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: created.id, values: VALUES },
      }),
      404,
      'not-found',
    );
    await expectProblem(
      await server.api(`/v1/templates/${created.id}`, { method: 'DELETE' }),
      404,
      'not-found',
    );
    const list: Json[] = await (await server.api('/v1/templates')).json();
    expect(list.some((i) => i.id === created.id)).toBe(false);
  });

  it('lets a running batch of a deleted template finish', async () => {
    const created = await fork();
    const batch = await createBatch(server, {
      templateId: created.id,
      target: 'square',
      format: 'png',
      sourceType: 'json-array',
      source: { records: Array.from({ length: 8 }, () => VALUES) },
    });
    expect((await server.api(`/v1/templates/${created.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    const done = await waitForBatch(server, batch.id);
    expect(done).toMatchObject({ status: 'succeeded', succeeded: 8 });
  });
});

describe('draft previews', () => {
  it('renders an unsaved draft for the desktop UI, and refuses API keys', async () => {
    const created = await fork();
    const session = await uiSessionHeaders(server);
    const draft = {
      ...created.template,
      layouts: withHeadline(created.template, (l) => {
        l.colour = '#C0392B';
      }),
    };
    const res = await server.fetch(`${server.url}/v1/templates/${created.id}/preview`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ template: draft, values: VALUES, target: 'square', width: 360 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBe(360);
    // Where each layer was drawn, in the layout's pixels (not the smaller image's): the editor
    // outlines a stack's layers by these.
    const boxes = parseDrawnBoxes(res.headers.get(DRAWN_BOXES_HEADER));
    const headline = boxes.find((box) => box.id === 'headline');
    expect(headline?.width).toBeGreaterThan(360);
    // Nothing was saved.
    expect((await (await server.api(`/v1/templates/${created.id}`)).json()).version).toBe(1);

    const invalid = await server.fetch(`${server.url}/v1/templates/${created.id}/preview`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ template: { ...draft, layouts: { square: { width: 1 } } } }),
    });
    expect(invalid.status).toBe(422);

    await expectProblem(
      await server.api(`/v1/templates/${created.id}/preview`, {
        method: 'POST',
        json: { template: draft },
      }),
      403,
      'forbidden',
    );
  });
});

describe('draft previews of a multi-page layout', () => {
  it('shows the page asked for, and answers 422 naming the pages for one the layout lacks', async () => {
    const created = await fork();
    const session = await uiSessionHeaders(server);
    const square = created.template.layouts.square as Json;
    // Page 2: nothing but a black background, so its preview is dark where page 1 is not.
    const draft = {
      ...created.template,
      layouts: {
        ...created.template.layouts,
        square: { ...square, morePages: [{ background: '#000000', layers: [] }] },
      },
    };
    const preview = (page: number) =>
      server.fetch(`${server.url}/v1/templates/${created.id}/preview`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({
          template: draft,
          values: VALUES,
          target: 'square',
          width: 120,
          page,
        }),
      });
    const brightness = async (res: Response) => {
      expect(res.status).toBe(200);
      const stats = await sharp(Buffer.from(await res.arrayBuffer())).stats();
      return stats.channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
    };
    const first = await brightness(await preview(1));
    const second = await brightness(await preview(2));
    expect(second).toBeLessThan(2);
    expect(first).toBeGreaterThan(second + 20);

    const missing = await preview(3);
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain('has 2 pages');
  });
});

describe('assets', () => {
  it('stores an uploaded image that image layers can use', async () => {
    const created = await fork();
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#3366FF' },
    })
      .png()
      .toBuffer();
    const res = await server.api(`/v1/templates/${created.id}/assets`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: png,
    });
    expect(res.status).toBe(201);
    const { asset } = await res.json();
    expect(asset).toMatch(/^upload-[0-9a-f]+\.png$/);
    const layouts = structuredClone(created.template.layouts);
    layouts.square.layers.push({
      id: 'sticker',
      kind: 'image',
      x: 10,
      y: 10,
      width: 64,
      height: 64,
      source: { asset },
    });
    expect((await patch(created.id, { layouts })).status).toBe(200);
    layouts.square.layers.at(-1).source = { asset: 'missing.png' };
    const body = await expectProblem(
      await patch(created.id, { layouts }),
      422,
      'validation-failed',
    );
    expect(body.errors![0]!.path).toMatch(/^layouts\.square\.layers\[\d+\]\.source\.asset$/);
  });

  it('refuses a body that is not a decodable image', async () => {
    const created = await fork();
    await expectProblem(
      await server.api(`/v1/templates/${created.id}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: Buffer.from('not a png at all'),
      }),
      422,
      'image-invalid',
    );
    await expectProblem(
      await server.api(`/v1/templates/${created.id}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: Buffer.from('%PDF-1.4'),
      }),
      415,
      'unsupported-media-type',
    );
  });
});

describe('reading assets', () => {
  it("serves the template's own images, scaled down with width, and nothing outside its folder", async () => {
    const created = await fork();
    const whole = await server.api(`/v1/templates/${created.id}/assets/product.jpg`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/jpeg');
    const full = await sharp(Buffer.from(await whole.arrayBuffer())).metadata();
    const small = await server.api(`/v1/templates/${created.id}/assets/product.jpg?width=120`);
    expect(small.headers.get('content-type')).toBe('image/webp');
    const scaled = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect(scaled.width).toBe(120);
    expect(scaled.height).toBe(Math.round((120 * full.height!) / full.width!));
    await expectProblem(
      await server.api(`/v1/templates/${created.id}/assets/${encodeURIComponent('../../x.png')}`),
      404,
      'not-found',
    );
    await expectProblem(
      await server.api(`/v1/templates/${created.id}/assets/missing.png`),
      404,
      'not-found',
    );
  });
});

describe('openapi', () => {
  it('documents the workspace template routes', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    for (const p of ['/v1/catalog/{id}/fork', '/v1/templates', '/v1/templates/{id}']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect(Object.keys(doc.paths['/v1/templates/{id}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete']),
    );
  });
});
