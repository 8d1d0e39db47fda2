import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { createBatch, downloadBundle, waitForBatch } from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import { uiSessionHeaders } from '../helpers/ui-session.js';

let server: InjectServer;
/** The reference template: its accent colour binds to `brand.primaryColor`. */
let template: CatalogDetail;
/** Sample values without the brand-bound ones, so the brand decides them. */
let values: Record<string, unknown>;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2, openingCredits: 5000 });
  template = await catalogDetail(server, 'tmpl_product_promo');
  const bound = new Set(template.variables.filter((v) => v.bindsTo).map((v) => v.name));
  values = Object.fromEntries(
    Object.entries(template.sampleValues).filter(([name]) => !bound.has(name)),
  );
});
afterAll(() => server.stop());

const sha = (bytes: ArrayBuffer | Buffer) =>
  crypto
    .createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');

const profile = (name: string, primary: string) => ({
  name,
  colours: { primary, secondary: null, accent: null, text: null, background: null },
});

async function createBrand(body: unknown): Promise<Json> {
  const res = await server.api('/v1/brands', { method: 'POST', json: body });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`create brand answered ${res.status}: ${json.detail}`);
  return json;
}

async function renderSha(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await server.api('/v1/render', {
    method: 'POST',
    json: { templateId: template.id, target: 'square', values, ...extra },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return sha(await res.arrayBuffer());
}

describe('brand kit CRUD', () => {
  it('lists the default brand first, creates, reads, renames and removes named brands', async () => {
    const initial: Json[] = await (await server.api('/v1/brands')).json();
    expect(initial).toHaveLength(1);
    expect(initial[0]).toMatchObject({ name: 'Default', isDefault: true });

    const res = await server.api('/v1/brands', {
      method: 'POST',
      json: { name: '  Phở Hà Nội ', profile: profile('Phở Hà Nội', '#C8102E') },
    });
    expect(res.status).toBe(201);
    const pho = await res.json();
    expect(res.headers.get('location')).toBe(`/v1/brands/${pho.id}`);
    expect(pho).toMatchObject({ name: 'Phở Hà Nội', isDefault: false });
    expect(pho.id).toMatch(/^brand_/);
    expect(pho.profile.colours.primary).toBe('#C8102E');
    expect(pho.profile.fonts).toEqual({ heading: null, body: null });

    const read = await (await server.api(`/v1/brands/${pho.id}`)).json();
    expect(read).toEqual(pho);

    const renamed = await server.api(`/v1/brands/${pho.id}`, {
      method: 'PUT',
      json: { name: 'Phở Bắc', profile: { ...pho.profile, tagline: 'Since 1954' } },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({
      name: 'Phở Bắc',
      profile: { tagline: 'Since 1954', colours: { primary: '#C8102E' } },
    });
    const kept = await server.api(`/v1/brands/${pho.id}`, {
      method: 'PUT',
      json: { profile: { ...pho.profile, website: 'pho.example' } },
    });
    expect((await kept.json()).name).toBe('Phở Bắc');

    const list: Json[] = await (await server.api('/v1/brands')).json();
    expect(list.map((b) => b.id)).toEqual([initial[0].id, pho.id]);

    expect((await server.api(`/v1/brands/${pho.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.api(`/v1/brands/${pho.id}`)).status).toBe(404);
    expect((await server.api(`/v1/brands/${pho.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses a bad name, a bad colour and an unreadable logo with the field path', async () => {
    const noName = await server.api('/v1/brands', { method: 'POST', json: { name: '   ' } });
    expect(noName.status).toBe(422);
    expect((await noName.json()).errors[0].path).toBe('name');

    const colour = await server.api('/v1/brands', {
      method: 'POST',
      json: { name: 'Red', profile: profile('Red', 'red') },
    });
    expect(colour.status).toBe(422);
    expect((await colour.json()).errors[0].path).toBe('profile.colours.primary');

    const logo = await server.api('/v1/brands', {
      method: 'POST',
      json: { name: 'Logo', profile: { logoDark: '/no/such/logo.png' } },
    });
    expect(logo.status).toBe(422);
    const problem = await logo.json();
    expect(problem.code).toBe('image-invalid');
    expect(problem.errors[0].path).toBe('profile.logoDark');
    const names = ((await (await server.api('/v1/brands')).json()) as Json[]).map((b) => b.name);
    expect(names).not.toContain('Logo');
  });

  it('refuses a logo file that exists but is not an image, at the field path', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rd-logo-')), 'logo.png');
    fs.writeFileSync(file, 'root:x:0:0:root:/root:/bin/bash\n');
    const res = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { ...(await (await server.api('/v1/brand-profile')).json()), logo: file },
    });
    const problem = await res.json();
    expect(res.status).toBe(422);
    expect(problem).toMatchObject({ code: 'image-invalid', errors: [{ path: 'logo' }] });
    expect(problem.detail).toMatch(/^logo: the file is not a readable image/);
  });

  it('switches the default, which /v1/brand-profile follows, and refuses to delete the default', async () => {
    const before = await (await server.api('/v1/brands')).json();
    const oldDefault = before.find((b: Json) => b.isDefault);
    const acme = await createBrand({
      name: 'Acme',
      profile: profile('Acme', '#123456'),
      makeDefault: true,
    });
    expect(acme.isDefault).toBe(true);
    expect((await (await server.api('/v1/brand-profile')).json()).name).toBe('Acme');
    const list: Json[] = await (await server.api('/v1/brands')).json();
    expect(list.filter((b) => b.isDefault).map((b) => b.id)).toEqual([acme.id]);

    const conflict = await server.api(`/v1/brands/${acme.id}`, { method: 'DELETE' });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).detail).toMatch(/make another brand the default first/);

    const back = await server.api(`/v1/brands/${oldDefault.id}/default`, { method: 'POST' });
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ id: oldDefault.id, isDefault: true });
    expect((await (await server.api(`/v1/brands/${acme.id}`)).json()).isDefault).toBe(false);
    expect((await server.api('/v1/brands/brand_missing/default', { method: 'POST' })).status).toBe(
      404,
    );

    // The old route still edits whichever brand is the default.
    const put = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: profile('Back home', '#0F766E'),
    });
    expect(put.status).toBe(200);
    expect((await (await server.api(`/v1/brands/${oldDefault.id}`)).json()).profile.name).toBe(
      'Back home',
    );
    expect((await server.api(`/v1/brands/${acme.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses a font family that is neither bundled nor uploaded, at the path of each route body', async () => {
    const fonts = (heading: string | null, body: string | null) => ({
      ...profile('Fonts', '#0F766E'),
      fonts: { heading, body },
    });
    const cases = [
      ['/v1/brand-profile', 'PUT', fonts('No Such Sans', null), 'fonts.heading'],
      [
        '/v1/brands',
        'POST',
        { name: 'Fonts', profile: fonts(null, 'No Such Serif') },
        'profile.fonts.body',
      ],
    ] as const;
    for (const [url, method, json, path] of cases) {
      const res = await server.api(url, { method, json });
      expect(res.status, `${method} ${url}`).toBe(422);
      const problem = await res.json();
      expect(problem.errors[0].path).toBe(path);
      expect(problem.errors[0].message).toMatch(/No Such/);
    }
    const brand = await createBrand({ name: 'Fonts ok', profile: fonts('Montserrat', null) });
    const put = await server.api(`/v1/brands/${brand.id}`, {
      method: 'PUT',
      json: { profile: fonts('Montserrat', 'No Such Serif') },
    });
    expect(put.status).toBe(422);
    expect((await put.json()).errors[0].path).toBe('profile.fonts.body');
    expect((await (await server.api(`/v1/brands/${brand.id}`)).json()).profile.fonts.body).toBe(
      null,
    );
  });

  it('accepts an uploaded custom family as a brand font', async () => {
    const upload = await server.api('/v1/fonts?name=BrandKitDisplay-Regular.ttf', {
      method: 'POST',
      headers: { 'content-type': 'font/ttf' },
      body: testFont(MONTSERRAT, 'Brand Kit Display'),
    });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const brand = await createBrand({
      name: 'Custom fonts',
      profile: { fonts: { heading: 'Brand Kit Display', body: 'Be Vietnam Pro' } },
    });
    expect(brand.profile.fonts).toEqual({ heading: 'Brand Kit Display', body: 'Be Vietnam Pro' });
    const put = await server.api(`/v1/brands/${brand.id}`, {
      method: 'PUT',
      json: { profile: { fonts: { heading: null, body: 'Brand Kit Display' } } },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await put.json()).profile.fonts.body).toBe('Brand Kit Display');
  });
});

describe('naming the brand per request', () => {
  it('renders with the named brand, and with the default brand when none is named', async () => {
    const defaultId = ((await (await server.api('/v1/brands')).json()) as Json[]).find(
      (b) => b.isDefault,
    ).id;
    await server.api('/v1/brand-profile', { method: 'PUT', json: profile('Home', '#1D4ED8') });
    const a = await createBrand({ name: 'Brand A', profile: profile('A', '#DC2626') });
    const b = await createBrand({ name: 'Brand B', profile: profile('B', '#16A34A') });

    const withA = await renderSha({ brand: a.id });
    const withB = await renderSha({ brand: b.id });
    const omitted = await renderSha();
    expect(withA).not.toBe(withB);
    expect(omitted).not.toBe(withA);
    expect(omitted).toBe(await renderSha({ brand: defaultId }));
    // An explicit value still wins over the brand's.
    expect(await renderSha({ brand: a.id, values: { ...values, accentColor: '#16A34A' } })).toBe(
      await renderSha({ brand: b.id, values: { ...values, accentColor: '#16A34A' } }),
    );
  });

  it('answers 422 at path brand for an unknown or malformed brand id', async () => {
    for (const brand of ['brand_doesNotExist1', 'not-a-brand']) {
      const res = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: template.id, values, brand },
      });
      expect(res.status, brand).toBe(422);
      const problem = await res.json();
      expect(problem.code).toBe('validation-failed');
      expect(problem.errors.map((e: Json) => e.path)).toEqual(['brand']);
    }
  });

  it('previews with the named brand in the desktop UI', async () => {
    const session = await uiSessionHeaders(server);
    const a = await createBrand({ name: 'Preview A', profile: profile('A', '#DC2626') });
    const b = await createBrand({ name: 'Preview B', profile: profile('B', '#16A34A') });
    const preview = async (brand: string) => {
      const res = await server.fetch(`${server.url}/v1/render/preview`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ templateId: template.id, values, brand, width: 240 }),
      });
      expect(res.status).toBe(200);
      return sha(await res.arrayBuffer());
    };
    expect(await preview(a.id)).not.toBe(await preview(b.id));
    const unknown = await server.fetch(`${server.url}/v1/render/preview`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: template.id, values, brand: 'brand_nope' }),
    });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors[0].path).toBe('brand');
  });

  it("pins the named brand's profile when the batch starts, even if the brand is edited mid-batch", async () => {
    const a = await createBrand({ name: 'Pinned A', profile: profile('A', '#7C3AED') });
    const expected = await renderSha({ brand: a.id });
    const rows = 24;
    const created = await createBatch(server, {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: Array.from({ length: rows }, () => values) },
      brand: a.id,
    });
    // Edit the brand straight away: most rows are still to be drawn.
    const edited = await server.api(`/v1/brands/${a.id}`, {
      method: 'PUT',
      json: { profile: profile('A', '#F59E0B') },
    });
    expect(edited.status).toBe(200);
    const during = await (await server.api(`/v1/render-batches/${created.id}`)).json();
    expect(during.succeeded).toBeLessThan(rows);

    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({ status: 'succeeded', succeeded: rows });
    const zip = await downloadBundle(server, created.id);
    const images = zip.getEntries().filter((e) => e.entryName.endsWith('.png'));
    expect(images).toHaveLength(rows);
    for (const image of images) expect(sha(image.getData()), image.entryName).toBe(expected);
    expect(await renderSha({ brand: a.id })).not.toBe(expected);
  });

  it('refuses a batch naming an unknown brand, and preflights with the named brand', async () => {
    const body = {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: [values] },
      brand: 'brand_unknown00',
    };
    const batch = await server.api('/v1/render-batches', { method: 'POST', json: body });
    expect(batch.status).toBe(422);
    expect((await batch.json()).errors[0].path).toBe('brand');

    const missing = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: body,
    });
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors[0].path).toBe('brand');

    const a = await createBrand({ name: 'Preflight A', profile: profile('A', '#DC2626') });
    const ok = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: { ...body, brand: a.id, bindings: { accentColor: { profile: 'brand.primaryColor' } } },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ total: 1, valid: 1, invalid: 0 });
  });

  it('lists the brand routes and the brand field in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    for (const [path, method] of [
      ['/v1/brands', 'get'],
      ['/v1/brands', 'post'],
      ['/v1/brands/{id}', 'get'],
      ['/v1/brands/{id}', 'put'],
      ['/v1/brands/{id}', 'delete'],
      ['/v1/brands/{id}/default', 'post'],
      ['/v1/brand-profile', 'get'],
      ['/v1/brand-profile', 'put'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const schemaOf = (path: string) =>
      doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(schemaOf('/v1/render').properties.brand).toBeDefined();
    expect(schemaOf('/v1/render-batches').properties.brand).toBeDefined();
    expect(schemaOf('/v1/brands').required).toContain('name');
  });
});
