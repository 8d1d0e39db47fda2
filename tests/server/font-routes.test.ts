import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore } from '../../main/app.js';
import {
  BE_VIETNAM_PRO,
  MONTSERRAT,
  NOTO_SERIF_BOLD,
  testFont,
  toWoff,
  toWoff2,
} from '../fonts/fixtures/sfnt-fixtures.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { TEST_ADMIN_KEY, testFetch, type Json } from '../helpers/test-server.js';
import { expectProblem } from '../helpers/expect-problem.js';

const SOURCE = 'tmpl_product_promo';
const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

/** Montserrat renamed: covers Vietnamese, and draws unlike the bundled Be Vietnam Pro. */
const DISPLAY = testFont(MONTSERRAT, 'Test Display');
/** The same outlines with an ASCII-only character map. */
const LATIN = testFont(MONTSERRAT, 'Test Latin', { latinOnly: true });
const SERIF_WOFF = toWoff(testFont(NOTO_SERIF_BOLD, 'Test Serif', { subfamily: 'Bold' }));
const VIETNAM_WOFF2 = toWoff2(testFont(BE_VIETNAM_PRO, 'Test Vietnam'));

let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
});
afterAll(() => server.stop());

function upload(bytes: Uint8Array, type = 'font/ttf', name?: string) {
  const query = name ? `?name=${encodeURIComponent(name)}` : '';
  return server.api(`/v1/fonts${query}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
}

async function uploaded(bytes: Uint8Array, type = 'font/ttf', name?: string): Promise<Json> {
  const res = await upload(bytes, type, name);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function fork(): Promise<Json> {
  const res = await server.api(`/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: {} });
  expect(res.status).toBe(201);
  return res.json();
}

/** Sets the square headline's font family (and optionally the headline sample text). */
function setHeadlineFont(detail: Json, family: string, sample?: string) {
  const { template } = detail;
  const layouts = structuredClone(template.layouts);
  const index = layouts.square.layers.findIndex((l: Json) => l.id === 'headline');
  layouts.square.layers[index].font.family = family;
  const body: Json = { layouts };
  if (sample !== undefined) body.sampleValues = { ...template.sampleValues, headline: sample };
  return {
    index,
    res: server.api(`/v1/templates/${detail.id}`, { method: 'PATCH', json: body }),
  };
}

async function render(templateId: string) {
  const res = await server.api('/v1/render', {
    method: 'POST',
    json: { templateId, values: VALUES, target: 'square', format: 'png' },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const sha = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('uploading fonts', () => {
  it('stores a TTF in the data directory and describes it', async () => {
    const res = await upload(DISPLAY, 'font/ttf', 'TestDisplay-Regular.ttf');
    expect(res.status).toBe(201);
    const font = await res.json();
    expect(font).toMatchObject({
      family: 'Test Display',
      weight: 400,
      style: 'normal',
      format: 'ttf',
      size: DISPLAY.length,
      sha256: sha(DISPLAY),
      originalName: 'TestDisplay-Regular.ttf',
    });
    expect(font.id).toMatch(/^font_/);
    expect(font.scripts).toEqual(expect.arrayContaining(['latin', 'vietnamese']));
    expect(font.licence).toMatch(/Open Font License/);
    expect(res.headers.get('location')).toBe(`/v1/fonts/${font.id}`);
    const file = path.join(server.dataDir, 'fonts', `${sha(DISPLAY)}.ttf`);
    expect(fs.readFileSync(file).equals(DISPLAY)).toBe(true);

    const read = await server.api(`/v1/fonts/${font.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(font);
  });

  it('returns the stored font, not a copy, when the same bytes come again', async () => {
    const first = await upload(DISPLAY, 'application/octet-stream');
    const second = await upload(DISPLAY, 'font/ttf');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect((await first.json()).id).toBe((await second.json()).id);
  });

  it('takes WOFF and WOFF2, detected by their bytes, and reports their scripts', async () => {
    const serif = await uploaded(SERIF_WOFF, 'application/font-woff');
    expect(serif).toMatchObject({ family: 'Test Serif', weight: 700, format: 'woff' });
    expect(serif.scripts).toEqual(expect.arrayContaining(['greek', 'cyrillic']));
    const vietnam = await uploaded(VIETNAM_WOFF2, 'font/woff2');
    expect(vietnam).toMatchObject({ family: 'Test Vietnam', format: 'woff2' });
    expect(vietnam.scripts).toContain('vietnamese');
    const latin = await uploaded(LATIN);
    expect(latin.scripts).toEqual(['latin']);
  });

  it('refuses another file for a face already installed, saying to delete the old one first', async () => {
    const body = await expectProblem(await upload(toWoff(DISPLAY), 'font/woff'), 409, 'conflict');
    expect(body.detail).toMatch(/Test Display 400 is already installed/);
    expect(body.detail).toMatch(/Delete it first/);
  });

  it('refuses to upload a bundled family', async () => {
    const body = await expectProblem(await upload(fs.readFileSync(MONTSERRAT)), 409, 'conflict');
    expect(body.detail).toMatch(/"Montserrat" is a bundled font/);
  });

  it('refuses files that are not fonts, and truncated fonts, with 422 font-invalid', async () => {
    const png = fs.readFileSync(
      path.join(
        import.meta.dirname,
        '..',
        '..',
        'templates',
        'catalog',
        'product-promo',
        'logo.png',
      ),
    );
    expect((await expectProblem(await upload(png), 422, 'font-invalid')).detail).toMatch(
      /not a font/,
    );
    await expectProblem(await upload(crypto.randomBytes(10_000)), 422, 'font-invalid');
    const half = testFont(NOTO_SERIF_BOLD, 'Test Half').subarray(0, 200_000);
    const body = await expectProblem(await upload(half), 422, 'font-invalid');
    expect(body.detail).toMatch(/incomplete/);
  });

  it('answers 413 for a 50 MB body and 415 for a body not sent as a font', async () => {
    await expectProblem(await upload(Buffer.alloc(50 * 1024 * 1024, 1)), 413, 'payload-too-large');
    await expectProblem(await upload(DISPLAY, 'text/plain'), 415, 'unsupported-media-type');
  });

  it('lists bundled families, then custom families with their faces', async () => {
    const res = await server.api('/v1/fonts');
    expect(res.status).toBe(200);
    const { families } = await res.json();
    const bundled = families.find((f: Json) => f.family === 'Be Vietnam Pro');
    expect(bundled).toMatchObject({ source: 'bundled' });
    expect(bundled.scripts).toContain('vietnamese');
    expect(bundled.faces).toContainEqual({ id: null, weight: 700, style: 'normal' });
    const display = families.find((f: Json) => f.family === 'Test Display');
    expect(display).toMatchObject({ source: 'custom' });
    expect(display.faces).toHaveLength(1);
    expect(display.faces[0].id).toMatch(/^font_/);
    const latin = families.find((f: Json) => f.family === 'Test Latin');
    expect(latin.scripts).toEqual(['latin']);
    expect(families.findIndex((f: Json) => f.source === 'custom')).toBeGreaterThan(
      families.findLastIndex((f: Json) => f.source === 'bundled'),
    );
  });
});

describe('custom fonts in templates', () => {
  it('refuses a custom font that cannot draw the sample text, naming the characters and the layer', async () => {
    const template = await fork();
    const { index, res } = setHeadlineFont(template, 'Test Latin', 'Giảm giá ấn tượng ₫');
    const body = await expectProblem(await res, 422, 'validation-failed');
    expect(body.errors).toEqual([
      {
        path: `layouts.square.layers[${index}].font.family`,
        message: expect.stringContaining('Test Latin cannot draw "ả", "á", "ấ", "ư", "ợ", "₫"'),
      },
    ]);
  });

  it('ignores emoji and spaces in the sample text (the colour emoji font draws emoji)', async () => {
    const template = await fork();
    const { res } = setHeadlineFont(template, 'Test Latin', 'Big sale 🎉 today');
    expect((await res).status).toBe(200);
  });

  it('refuses a family that is neither bundled nor uploaded', async () => {
    const template = await fork();
    const { index, res } = setHeadlineFont(template, 'No Such Sans');
    const body = await expectProblem(await res, 422, 'validation-failed');
    expect(body.errors).toEqual([
      {
        path: `layouts.square.layers[${index}].font.family`,
        message: expect.stringMatching(
          /no font named "No Such Sans" is installed; upload it first/,
        ),
      },
    ]);
  });

  it('renders with a custom font that covers the text, the same bytes in any worker', async () => {
    const template = await fork();
    const bundled = await render(template.id);
    const { res } = setHeadlineFont(template, 'Test Display', 'Giảm giá ấn tượng');
    expect((await res).status).toBe(200);
    // Several at once, so both workers draw it, some of them twice.
    const renders = await Promise.all([1, 2, 3, 4].map(() => render(template.id)));
    expect(renders[0]!.equals(bundled)).toBe(false);
    for (const other of renders.slice(1)) expect(other.equals(renders[0]!)).toBe(true);
  });

  it('refuses to delete a font a template or brand profile uses, and deletes one nobody uses', async () => {
    const { families } = await (await server.api('/v1/fonts')).json();
    const idOf = (family: string) =>
      families.find((f: Json) => f.family === family).faces[0].id as string;

    const inTemplate = await server.api(`/v1/fonts/${idOf('Test Display')}`, { method: 'DELETE' });
    expect((await expectProblem(inTemplate, 409, 'font-in-use')).detail).toMatch(/template/);

    const brand = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { fonts: { heading: 'Test Vietnam', body: null } },
    });
    expect(brand.status).toBe(200);
    const inBrand = await server.api(`/v1/fonts/${idOf('Test Vietnam')}`, { method: 'DELETE' });
    expect((await expectProblem(inBrand, 409, 'font-in-use')).detail).toMatch(/brand profile/);

    const serif = idOf('Test Serif');
    const file = path.join(server.dataDir, 'fonts', `${sha(SERIF_WOFF)}.woff`);
    expect(fs.existsSync(file)).toBe(true);
    const deleted = await server.api(`/v1/fonts/${serif}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    await expectProblem(await server.api(`/v1/fonts/${serif}`), 404, 'not-found');
    await expectProblem(
      await server.api(`/v1/fonts/${serif}`, { method: 'DELETE' }),
      404,
      'not-found',
    );
  });

  it('documents the font routes in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/fonts', '/v1/fonts/{id}']));
  });
});

describe('custom fonts across restarts', () => {
  it('keeps an uploaded font and renders with it after the core restarts on the same data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-fonts-'));
    const config = {
      port: 0,
      dataDir,
      apiKey: TEST_ADMIN_KEY,
      openingCredits: 1000,
      rateLimit: 10_000,
      workers: 1,
      subscription: undefined,
    };
    const headers = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
    const json = { ...headers, 'content-type': 'application/json' };
    try {
      const first = await startCore(config);
      const res = await testFetch(`${first.url}/v1/fonts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'font/ttf' },
        body: DISPLAY,
      });
      expect(res.status).toBe(201);
      const font = await res.json();
      const forked = await (
        await testFetch(`${first.url}/v1/catalog/${SOURCE}/fork`, {
          method: 'POST',
          headers: json,
          body: '{}',
        })
      ).json();
      const layouts = structuredClone(forked.template.layouts);
      layouts.square.layers.find((l: Json) => l.id === 'headline').font.family = 'Test Display';
      const patched = await testFetch(`${first.url}/v1/templates/${forked.id}`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ layouts }),
      });
      expect(patched.status).toBe(200);
      const renderBody = JSON.stringify({
        templateId: forked.id,
        values: VALUES,
        target: 'square',
        format: 'png',
      });
      const before = await testFetch(`${first.url}/v1/render`, {
        method: 'POST',
        headers: json,
        body: renderBody,
      });
      expect(before.status).toBe(200);
      const beforeBytes = Buffer.from(await before.arrayBuffer());
      await first.close();

      const second = await startCore(config);
      try {
        const read = await testFetch(`${second.url}/v1/fonts/${font.id}`, { headers });
        expect(read.status).toBe(200);
        expect(await read.json()).toEqual(font);
        const after = await testFetch(`${second.url}/v1/render`, {
          method: 'POST',
          headers: json,
          body: renderBody,
        });
        expect(after.status).toBe(200);
        expect(Buffer.from(await after.arrayBuffer()).equals(beforeBytes)).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
