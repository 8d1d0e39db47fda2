import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '../../shared/fold-text.js';
import { catalogDetail, listCatalog } from '../helpers/catalog-probe.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
});
afterAll(() => server.stop());

describe('GET /v1/catalog', () => {
  it('lists built-in templates with the spec fields', async () => {
    const items = await listCatalog(server);
    expect(items.length).toBeGreaterThanOrEqual(8);
    for (const item of items) {
      expect(item.id).toMatch(/^tmpl_/);
      expect(item).toMatchObject({
        name: expect.any(String),
        category: expect.any(String),
        subCategory: expect.any(String),
      });
      expect(['global', 'vietnam']).toContain(item.market);
      expect(item.ratios.length).toBeGreaterThanOrEqual(3);
      expect(item.thumbnail).toMatch(
        new RegExp(`^${server.url}/v1/thumbnails/.+\\?exp=\\d+&sig=[0-9a-f]{64}$`),
      );
    }
  });

  it('filters by category, subCategory and market', async () => {
    const all = await listCatalog(server);
    const sample = all[0]!;
    const byCategory = await listCatalog(
      server,
      `?category=${encodeURIComponent(sample.category)}`,
    );
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((i) => i.category === sample.category)).toBe(true);
    const bySub = await listCatalog(
      server,
      `?subCategory=${encodeURIComponent(sample.subCategory)}`,
    );
    expect(bySub.every((i) => i.subCategory === sample.subCategory)).toBe(true);
    const vietnam = await listCatalog(server, '?market=vietnam');
    expect(vietnam.length).toBeGreaterThanOrEqual(3);
    expect(vietnam.every((i) => i.market === 'vietnam')).toBe(true);
    expect(await listCatalog(server, '?category=No%20such%20category')).toEqual([]);
  });

  it('answers 422 for an unknown market or sort', async () => {
    expect((await server.api('/v1/catalog?market=mars')).status).toBe(422);
    expect((await server.api('/v1/catalog?sort=oldest')).status).toBe(422);
  });

  it('searches names case-insensitively and without Vietnamese diacritics', async () => {
    const all = await listCatalog(server);
    const nonAscii = (s: string) => [...s].some((c) => c.charCodeAt(0) > 0x7f);
    const vietnamese = all.find((i) => i.name !== foldForSearch(i.name) && nonAscii(i.name));
    expect(vietnamese, 'a template with a Vietnamese name').toBeDefined();
    const word = vietnamese!.name.split(/\s+/).find((w) => nonAscii(w))!;
    for (const q of [word, word.toUpperCase(), foldForSearch(word), word.normalize('NFD')]) {
      const found = await listCatalog(server, `?q=${encodeURIComponent(q)}`);
      expect(
        found.map((i) => i.id),
        q,
      ).toContain(vietnamese!.id);
    }
    expect(await listCatalog(server, '?q=zzzz-no-match')).toEqual([]);
  });

  it('sorts newest first with sort=newest', async () => {
    const items = await listCatalog(server, '?sort=newest');
    const dates = items.map((i) => i.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });
});

describe('GET /v1/catalog/{id} and taxonomy', () => {
  it('returns the detail with dimensions, aspect, format, ratios and variables', async () => {
    const [item] = await listCatalog(server);
    const detail = await catalogDetail(server, item!.id);
    expect(detail).toMatchObject({
      id: item!.id,
      name: item!.name,
      format: 'png',
      ratios: item!.ratios,
    });
    expect(detail.dimensions.width).toBeGreaterThan(0);
    expect(typeof detail.aspect).toBe('string');
    for (const v of detail.variables) {
      expect(['text', 'longText', 'colour', 'image', 'number', 'date', 'enum', 'list']).toContain(
        v.type,
      );
      expect(typeof v.required).toBe('boolean');
      expect(v).toHaveProperty('bindsTo');
    }
  });

  it('exposes brand-bound variables', async () => {
    const roles = new Set<string>();
    for (const item of await listCatalog(server)) {
      for (const v of (await catalogDetail(server, item.id)).variables)
        if (v.bindsTo) roles.add(v.bindsTo);
    }
    expect(roles).toContain('brand.logo');
    expect([...roles].some((r) => /Color$/.test(r))).toBe(true);
  });

  it('answers 404 problem+json for an unknown id', async () => {
    const res = await server.api('/v1/catalog/tmpl_nope');
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not-found');
  });

  it('lists categories with their sub-categories', async () => {
    const taxonomy = await (await server.api('/v1/catalog/taxonomy')).json();
    const items = await listCatalog(server);
    for (const item of items) {
      const category = taxonomy.categories.find((c: { name: string }) => c.name === item.category);
      expect(category.subCategories).toContain(item.subCategory);
    }
  });
});

describe('the layout a template opens on', () => {
  it('is a print template’s print layout, as a PDF; the first ratio, as PNG, for the others', async () => {
    for (const [id, target] of [
      ['tmpl_name_badge', 'badge'],
      ['tmpl_certificate_award', 'a4'],
      ['tmpl_event_ticket', 'ticket'],
      ['tmpl_shelf_price_tag', 'tag'],
    ] as const) {
      expect(await catalogDetail(server, id), id).toMatchObject({
        primaryTarget: target,
        format: 'pdf',
      });
    }
    const promo = await catalogDetail(server, 'tmpl_product_promo');
    expect(promo).toMatchObject({ primaryTarget: promo.ratios[0], format: 'png' });
  });

  it('refuses a workspace template naming a layout it does not have (422 at primaryLayout)', async () => {
    const fork = await server.api('/v1/catalog/tmpl_name_badge/fork', { method: 'POST', json: {} });
    expect(fork.status).toBe(201);
    const { id, version } = (await fork.json()) as { id: string; version: number };
    const res = await server.api(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: { baseVersion: version, primaryLayout: 'poster' },
    });
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.errors).toEqual([
      expect.objectContaining({
        path: 'primaryLayout',
        message: expect.stringContaining('"poster"'),
      }),
    ]);
    const kept = await server.api(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: { baseVersion: version, primaryLayout: 'square' },
    });
    expect(kept.status, await kept.clone().text()).toBe(200);
    const keptDetail = await kept.json();
    expect(keptDetail.primaryTarget).toBe('square');
    // Removing that layout in the editor (which sends the layouts only) drops the preference.
    const { square: _square, ...others } = (
      keptDetail as { template: { layouts: Record<string, unknown> } }
    ).template.layouts;
    const without = await server.api(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: { baseVersion: version + 1, layouts: others },
    });
    expect(without.status, await without.clone().text()).toBe(200);
    const detail = await without.json();
    expect(detail.template.primaryLayout).toBeUndefined();
    expect(detail.primaryTarget).toBe(detail.ratios[0]);
  });
});

describe('thumbnails', () => {
  it('serves a PNG through the signed link without an API key, and caches it', async () => {
    const [item] = await listCatalog(server);
    const first = await server.fetch(item!.thumbnail);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
    expect(meta.width).toBe(480);
    const started = performance.now();
    expect((await server.fetch(item!.thumbnail)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses altered, cross-resource and expired links with 403', async () => {
    const [a, b] = await listCatalog(server);
    const tampered = a!.thumbnail.replace(
      /sig=([0-9a-f])/,
      (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`,
    );
    expect((await server.fetch(tampered)).status).toBe(403);
    const crossed = a!.thumbnail.replace(/\?.*$/, '') + b!.thumbnail.replace(/^[^?]*/, '');
    expect((await server.fetch(crossed)).status).toBe(403);
    const later = a!.thumbnail.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 3600}`);
    expect((await server.fetch(later)).status).toBe(403);
    const expired = await server.fetch(a!.thumbnail.replace(/exp=\d+/, 'exp=1000'));
    expect(expired.status).toBe(403);
    expect((await server.fetch(a!.thumbnail.replace(/\?.*$/, ''))).status).toBe(403);
  });

  it('refuses a link carrying a parameter twice or one it was not signed with as url-invalid (403)', async () => {
    const [item] = await listCatalog(server);
    const sig = /sig=([0-9a-f]{64})/.exec(item!.thumbnail)![1];
    const exp = /exp=(\d+)/.exec(item!.thumbnail)![1];
    for (const link of [
      `${item!.thumbnail}&sig=${sig}`,
      `${item!.thumbnail}&exp=${exp}`,
      `${item!.thumbnail}&utm_source=newsletter`,
    ]) {
      const res = await server.fetch(link);
      expect(res.status, link).toBe(403);
      expect(((await res.json()) as { type: string }).type).toMatch(/url-invalid/);
    }
    // The link as given still works.
    expect((await server.fetch(item!.thumbnail)).status).toBe(200);
  });
});
