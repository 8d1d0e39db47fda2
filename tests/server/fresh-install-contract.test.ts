import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * What a new user meets in the first ten minutes, on a fresh data directory with an empty brand
 * profile: every built-in template renders with its brand-bound variables omitted, and each
 * template's sampleRow renders as it is, alone and as batch records.
 */
let server: InjectServer;
let catalog: Json[];
const details = new Map<string, Json>();
/** Set RENDER_DESK_LOOK=<folder> to keep the empty-brand renders for a look. */
const lookDir = process.env.RENDER_DESK_LOOK;
/**
 * The catalog-wide sweeps below check what a fresh install does with the values (brand fill,
 * warnings, every row succeeding), not the drawing, which golden.test.ts pins at full size for
 * every template: they draw at a quarter of the size (the same layout, a sixteenth of the pixels
 * to draw and encode), or full size when RENDER_DESK_LOOK asks for images to look at.
 */
const SWEEP_OUTPUT = lookDir ? {} : { scale: 0.25 };

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2, openingCredits: 5000 });
  catalog = await (await server.api('/v1/catalog')).json();
  for (const item of catalog)
    details.set(item.id, await (await server.api(`/v1/catalog/${item.id}`)).json());
}, 60_000);
afterAll(async () => server.stop());

async function sampleRowOf(templateId: string): Promise<Json> {
  const res = await server.api(`/v1/render-batches/template-fields?templateId=${templateId}`);
  expect(res.status).toBe(200);
  return (await res.json()).sampleRow;
}

describe('brand-bound variables on a fresh install (spec 2.4)', () => {
  it('starts with an empty brand profile', async () => {
    const brand = await (await server.api('/v1/brand-profile')).json();
    expect(brand.name).toBe('');
    expect(brand.logo).toBeNull();
  });

  it('renders every built-in template in every ratio with every brand-bound variable omitted', async () => {
    expect(catalog.length).toBeGreaterThanOrEqual(24);
    const failures: string[] = [];
    for (const item of catalog) {
      const detail = details.get(item.id);
      const brandBound = detail.variables.filter((v: Json) => v.bindsTo);
      const values = await sampleRowOf(item.id);
      for (const v of brandBound) expect(values).not.toHaveProperty(v.name);
      for (const ratio of item.ratios as string[]) {
        const res = await server.api('/v1/render', {
          method: 'POST',
          json: { templateId: item.id, target: ratio, values, ...SWEEP_OUTPUT },
        });
        if (res.status !== 200) {
          failures.push(`${item.id}/${ratio}: ${res.status} ${await res.text()}`);
          continue;
        }
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
        if (lookDir) {
          fs.mkdirSync(lookDir, { recursive: true });
          fs.writeFileSync(path.join(lookDir, `${item.id}.${ratio}.png`), bytes);
        }
        // Every omitted brand-bound variable is reported with where its value came from.
        const fill = res.headers.get('x-brand-fill') ?? '';
        for (const v of brandBound) expect(fill, `${item.id}`).toMatch(new RegExp(`\\b${v.name}=`));
        const emptyRoles = brandBound
          .filter((v: Json) => v.default === undefined || v.default === null)
          .map((v: Json) => `${v.bindsTo} empty`);
        const warnings = res.headers.get('x-render-warnings');
        if (emptyRoles.length === 0) expect(warnings).toBeNull();
        else for (const role of emptyRoles) expect(warnings, item.id).toContain(role);
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('never answers 422 for an omitted brand-bound variable the template marks required', async () => {
    const required = catalog.filter((item) =>
      details.get(item.id).variables.some((v: Json) => v.bindsTo && v.required),
    );
    // tmpl_app_feature, tmpl_certificate_award, tmpl_grand_opening, tmpl_podcast_episode
    expect(required.map((item) => item.id)).toEqual(
      expect.arrayContaining([
        'tmpl_app_feature',
        'tmpl_certificate_award',
        'tmpl_grand_opening',
        'tmpl_podcast_episode',
      ]),
    );
    for (const item of required) {
      const res = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: item.id, values: { ...(await sampleRowOf(item.id)) } },
      });
      expect(res.status, item.id).toBe(200);
      expect(res.headers.get('x-render-warnings')).toContain('brand.name empty');
    }
  });

  it('fills an omitted brand-bound variable from the brand once the brand kit has it', async () => {
    const put = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { name: 'Hồng Phát Mart' },
    });
    expect(put.status).toBe(200);
    try {
      const res = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: 'tmpl_grand_opening', values: await sampleRowOf('tmpl_grand_opening') },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-brand-fill')).toContain('storeName=brand');
      expect(res.headers.get('x-render-warnings') ?? '').not.toContain('brand.name');
    } finally {
      await server.api('/v1/brand-profile', { method: 'PUT', json: { name: '' } });
    }
  });

  it('lists an empty brand-bound variable as a pre-flight warning, not a row error', async () => {
    const sampleRow = await sampleRowOf('tmpl_certificate_award');
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: {
        templateId: 'tmpl_certificate_award',
        sourceType: 'json-array',
        source: { records: [sampleRow, sampleRow, sampleRow] },
      },
    });
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result.valid).toBe(3);
    expect(result.invalid).toBe(0);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ path: 'values.organisation', rows: 3 }),
    );
    expect(result.warnings[0].message).toContain('brand.name');
  });
});

describe('the template-fields sample row', () => {
  it('renders as it is through POST /v1/render and as a 2-row json-array batch, for every template', async () => {
    const batches: { templateId: string; id: string; sampleRow: Json }[] = [];
    for (const item of catalog) {
      const sampleRow = await sampleRowOf(item.id);
      const single = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: item.id, values: sampleRow, ...SWEEP_OUTPUT },
      });
      expect(single.status, `${item.id}: ${single.status === 200 ? '' : await single.text()}`).toBe(
        200,
      );
      const batch = await createBatch(server, {
        templateId: item.id,
        sourceType: 'json-array',
        source: { records: [sampleRow, sampleRow] },
        ...SWEEP_OUTPUT,
      });
      batches.push({ templateId: item.id, id: batch.id, sampleRow });
    }
    for (const { templateId, id } of batches) {
      const done = await waitForBatch(server, id);
      const rows = await fullManifest(server, id);
      expect(done.status, `${templateId}: ${JSON.stringify(rows.map((r: Json) => r.error))}`).toBe(
        'succeeded',
      );
      expect(done.succeeded).toBe(2);
    }
  }, 240_000);

  it('keeps the CSV download fillable by a person: a photos/ column and lists joined by |', async () => {
    const res = await server.api(
      '/v1/render-batches/template-fields?templateId=tmpl_product_promo&format=csv',
    );
    const [header, row] = (await res.text()).replace(/^\ufeff/, '').split('\r\n');
    const columns = header!.split(',');
    const cells = row!.split(',');
    expect(cells[columns.indexOf('photo')]).toBe('photos/photo.jpg');
    const json = await (
      await server.api('/v1/render-batches/template-fields?templateId=tmpl_product_promo')
    ).json();
    expect(json.sampleRow.photo).toMatch(/^asset:/);
  });
});

describe('numbers in records bound to text variables', () => {
  it('render the same in a single render and a batch row: 12345 is the text "12345"', async () => {
    const detail = details.get('tmpl_product_promo');
    const textVar = detail.variables.find((v: Json) => v.type === 'text' && !v.bindsTo).name;
    const values = { ...(await sampleRowOf('tmpl_product_promo')), [textVar]: 12345 };
    const single = await server.api('/v1/render', {
      method: 'POST',
      json: { templateId: 'tmpl_product_promo', values },
    });
    expect(single.status).toBe(200);
    const asText = await server.api('/v1/render', {
      method: 'POST',
      json: { templateId: 'tmpl_product_promo', values: { ...values, [textVar]: '12345' } },
    });
    const singleBytes = Buffer.from(await single.arrayBuffer());
    expect(singleBytes.equals(Buffer.from(await asText.arrayBuffer()))).toBe(true);

    const batch = await createBatch(server, {
      templateId: 'tmpl_product_promo',
      sourceType: 'json-array',
      source: { records: [values] },
    });
    expect((await waitForBatch(server, batch.id)).status).toBe('succeeded');
    const [row] = await fullManifest(server, batch.id);
    const output = await server.fetch(`${server.url}/v1/outputs/${row.outputKey}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(Buffer.from(await output.arrayBuffer()).equals(singleBytes)).toBe(true);
  });

  it('still refuses an object or a list for a text variable, in both', async () => {
    const detail = details.get('tmpl_product_promo');
    const textVar = detail.variables.find((v: Json) => v.type === 'text' && !v.bindsTo).name;
    const res = await server.api('/v1/render', {
      method: 'POST',
      json: {
        templateId: 'tmpl_product_promo',
        values: { ...(await sampleRowOf('tmpl_product_promo')), [textVar]: { a: 1 } },
      },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain('expected text, got an object');
  });
});
