import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { Batch, BatchProgressEvent } from '../../shared/batch-schemas.js';
import { declaredRoutes, type RegisteredRoute } from '../../main/server/route-registry.js';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { waitForBatch } from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { startTestServer, type Json, type TestResponse } from '../helpers/test-server.js';
import { storedEntry, writeZip } from '../helpers/zip-builder.js';

/**
 * /v1/openapi.json is generated from the schemas each route declares. These tests hold every
 * route to its declaration: each JSON success it can send is sent for real, must be a status the
 * route declares, and must parse with the declared schema *unchanged* — no member the schema does
 * not list (OpenAPI publishes response objects as closed), none it would fill in or drop.
 */

let server: InjectServer;
let routes: readonly RegisteredRoute[];
let template: CatalogDetail;
let textVar: string;
let numberVar: string;
let imageVar: string;
/** `METHOD url status` of every JSON success checked so far. */
const checked = new Set<string>();

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1, openingCredits: 100 });
  routes = declaredRoutes(server.core.server);
  // The reference template: text, number and image variables.
  template = await catalogDetail(server, 'tmpl_product_promo');
  textVar = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!.name;
  numberVar = template.variables.find((v) => v.type === 'number')!.name;
  imageVar = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
});
afterAll(() => server.stop());

/** JSON successes a route declares: `METHOD url status`. */
function declaredJsonSuccesses(route: RegisteredRoute): string[] {
  return Object.entries(route.responses)
    .filter(([status, response]) => Number(status) < 300 && response.schema)
    .map(([status]) => `${route.method.toString()} ${route.url} ${status}`);
}

/**
 * Holds one answer of `route` ("METHOD /v1/url/:param", as declared) to its declaration and
 * returns the body.
 */
async function sent(route: string, res: TestResponse): Promise<Json> {
  const spec = routes.find((r) => `${r.method.toString()} ${r.url}` === route);
  expect(spec, `${route} is a declared route`).toBeDefined();
  const text = await res.text();
  expect(res.status, `${route}: ${text.slice(0, 500)}`).toBeLessThan(300);
  const declared = spec!.responses[res.status];
  expect(declared, `${route} declares ${res.status}`).toBeDefined();
  if (!declared!.schema) return undefined;
  expect(res.headers.get('content-type'), route).toMatch(/^application\/json/);
  const body: Json = JSON.parse(text);
  const parsed = declared!.schema.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues, `${route} ${res.status}`).toEqual([]);
  // A member the schema leaves out is dropped by the parse; one it defaults is added.
  expect(parsed.data, `${route} ${res.status} sends exactly what it declares`).toEqual(body);
  checked.add(`${route} ${res.status}`);
  return body;
}

/** Holds a problem answer of `route` to the schema the route declares for its status. */
async function refused(route: string, res: TestResponse, status: number): Promise<Json> {
  const spec = routes.find((r) => `${r.method.toString()} ${r.url}` === route);
  expect(res.status, `${route}: ${await res.clone().text()}`).toBe(status);
  const declared = spec?.responses[status];
  expect(declared?.schema, `${route} declares ${status} with a schema`).toBeDefined();
  expect(res.headers.get('content-type'), route).toMatch(/^application\/problem\+json/);
  const body: Json = await res.json();
  expect(declared!.schema!.parse(body), `${route} ${status}`).toEqual(body);
  return body;
}

const png = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: '#2a6f97' } })
    .png()
    .toBuffer();

function records(n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: n }, (_, i) => ({
    ...template.sampleValues,
    [textVar]: `Sản phẩm ${i}`,
    [numberVar]: 1000 * (i + 1),
    ...extra(i),
  }));
}

describe('every route sends what it declares', () => {
  it('documents every answer with a schema, a media type, or as 204 No Content', () => {
    const undocumented = routes.flatMap((route) =>
      Object.entries(route.responses)
        .filter(([status, r]) => status !== '204' && !r.schema && !r.mediaType)
        .map(([status]) => `${route.method.toString()} ${route.url} ${status}`),
    );
    expect(undocumented).toEqual([]);
    for (const route of routes) {
      const successes = Object.keys(route.responses).filter((status) => Number(status) < 300);
      expect(successes.length, `${route.method.toString()} ${route.url}`).toBeGreaterThan(0);
    }
  });

  it('sends the declared catalog, account, key, brand, system, team-service and UI-session bodies, and OpenAPI itself', async () => {
    await sent('GET /v1/catalog', await server.api('/v1/catalog'));
    await sent('GET /v1/catalog/taxonomy', await server.api('/v1/catalog/taxonomy'));
    await sent('GET /v1/catalog/:id', await server.api(`/v1/catalog/${template.id}`));

    await sent('GET /v1/account', await server.api('/v1/account'));
    await sent(
      'POST /v1/account/credits',
      await server.api('/v1/account/credits', {
        method: 'POST',
        json: { amount: 5, note: 'schema check' },
      }),
    );
    await sent(
      'PUT /v1/account/subscription',
      await server.api('/v1/account/subscription', {
        method: 'PUT',
        json: { status: 'active', expiresAt: '2099-01-01T00:00:00Z' },
      }),
    );
    const ledger = await sent(
      'GET /v1/account/ledger',
      await server.api('/v1/account/ledger?limit=1'),
    );
    expect(ledger.nextCursor).not.toBeNull();

    const key = await sent(
      'POST /v1/api-keys',
      await server.api('/v1/api-keys', { method: 'POST', json: { name: 'Reader', scope: 'read' } }),
    );
    await server.api(`/v1/api-keys/${key.id}`, { method: 'DELETE' });
    await sent('GET /v1/api-keys', await server.api('/v1/api-keys'));

    const profile = await sent('GET /v1/brand-profile', await server.api('/v1/brand-profile'));
    await sent(
      'PUT /v1/brand-profile',
      await server.api('/v1/brand-profile', {
        method: 'PUT',
        json: {
          ...profile,
          name: 'Cà Phê Sữa',
          logo: `data:image/png;base64,${(await png()).toString('base64')}`,
        },
      }),
    );
    const brand = await sent(
      'POST /v1/brands',
      await server.api('/v1/brands', { method: 'POST', json: { name: 'Second brand' } }),
    );
    await sent('GET /v1/brands', await server.api('/v1/brands'));
    await sent('GET /v1/brands/:id', await server.api(`/v1/brands/${brand.id}`));
    await sent(
      'PUT /v1/brands/:id',
      await server.api(`/v1/brands/${brand.id}`, {
        method: 'PUT',
        json: { name: 'Renamed brand', profile: brand.profile },
      }),
    );
    await sent(
      'POST /v1/brands/:id/default',
      await server.api(`/v1/brands/${brand.id}/default`, { method: 'POST' }),
    );

    await sent('GET /v1/system', await server.api('/v1/system'));
    await sent(
      'PUT /v1/system/preferences',
      await server.api('/v1/system/preferences', { method: 'PUT', json: { theme: 'dark' } }),
    );
    await sent('GET /v1/system/image-urls', await server.api('/v1/system/image-urls'));
    await sent(
      'POST /v1/preview-links',
      await server.api('/v1/preview-links', {
        method: 'POST',
        json: {
          templateId: 'tmpl_product_promo',
          values: { headline: 'Link', price: 1, photo: 'asset:product.jpg' },
        },
      }),
    );
    const webhook = await server.api('/v1/webhooks', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:9/hook', enabled: false },
    });
    const webhookId = ((await sent('POST /v1/webhooks', webhook)) as { id: string }).id;
    await sent('GET /v1/webhooks', await server.api('/v1/webhooks'));
    await sent('GET /v1/webhooks/deliveries', await server.api('/v1/webhooks/deliveries'));
    await sent(
      'PATCH /v1/webhooks/:id',
      await server.api(`/v1/webhooks/${webhookId}`, {
        method: 'PATCH',
        json: { description: 'CI' },
      }),
    );
    await sent(
      'POST /v1/preview-links/rotate-secret',
      await server.api('/v1/preview-links/rotate-secret', { method: 'POST' }),
    );
    await sent(
      'PUT /v1/system/image-urls',
      await server.api('/v1/system/image-urls', {
        method: 'PUT',
        json: { enabled: false, allowedHosts: ['*.cdn.example.com'] },
      }),
    );

    // A second, listening server stands in for the team service.
    const teamService = await startTestServer();
    try {
      await sent(
        'PUT /v1/team-service',
        await server.api('/v1/team-service', {
          method: 'PUT',
          json: {
            url: teamService.url,
            apiKey: teamService.key,
            lend: {
              enabled: false,
              workers: 1,
              postgresUrl: 'postgres://render:pw@db/render_desk',
            },
          },
        }),
      );
      const team = await sent('GET /v1/team-service', await server.api('/v1/team-service'));
      expect(team.lend.postgresUrl).toBe('postgres://render:***@db/render_desk');
      await sent(
        'POST /v1/team-service/check',
        await server.api('/v1/team-service/check', { method: 'POST' }),
      );
      await sent(
        'POST /v1/team-service/open',
        await server.api('/v1/team-service/open', { method: 'POST' }),
      );
    } finally {
      await teamService.stop();
    }

    const link = await sent(
      'POST /v1/ui-sessions',
      await server.api('/v1/ui-sessions', { method: 'POST' }),
    );
    const token = new URL(link.url).searchParams.get('token');
    await sent(
      'POST /ui/session',
      await server.fetch(new URL('/ui/session', link.url).href, {
        method: 'POST',
        json: { token },
      }),
    );

    await sent('GET /v1/openapi.json', await server.api('/v1/openapi.json'));
  });

  it("sends the declared upload of every kind, and the declared bodies through a batch's whole life", async () => {
    const upload = (bytes: Buffer | string, filename: string) =>
      server.api(`/v1/uploads?filename=${encodeURIComponent(filename)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
    // A blank and a repeated header: the upload names them and says so (renamedFields).
    const csv = await sent(
      'POST /v1/uploads',
      await upload(`${textVar},${numberVar},,${textVar}\nÁo dài,1200,x,y\nNón lá,90,,\n`, 'a.csv'),
    );
    expect(csv.renamedFields).toHaveLength(2);
    await sent('GET /v1/uploads/:id', await server.api(`/v1/uploads/${csv.id}`));
    // A page of rows past the first: the wizard's row picker reaches every row.
    const page = await sent(
      'GET /v1/uploads/:id/rows',
      await server.api(`/v1/uploads/${csv.id}/rows?offset=1&limit=5`),
    );
    expect(page.rows).toEqual([
      { rowIndex: 1, line: 3, cells: expect.objectContaining({ [textVar]: 'Nón lá' }) },
    ]);
    // A cell fixed in the app: this upload's copy changes, with the edit listed.
    const edited = await sent(
      'PUT /v1/uploads/:id/cells',
      await server.api(`/v1/uploads/${csv.id}/cells`, {
        method: 'PUT',
        json: { rowIndex: 1, field: textVar, value: 'Nón lá Huế' },
      }),
    );
    expect(edited.edits).toEqual([
      { sheet: null, rowIndex: 1, field: textVar, value: 'Nón lá Huế' },
    ]);

    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['just notes']);
    const sheet = workbook.addWorksheet('Products');
    sheet.addRow([textVar, numberVar]);
    sheet.addRow(['Bánh chưng', 150000]);
    const xlsx = await sent(
      'POST /v1/uploads',
      await upload(Buffer.from(await workbook.xlsx.writeBuffer()), 'tet.xlsx'),
    );
    expect(xlsx.sheets).toHaveLength(2);
    await sent('GET /v1/uploads/:id', await server.api(`/v1/uploads/${xlsx.id}?sheet=1`));

    const image = await sent('POST /v1/uploads', await upload(await png(), 'photo.png'));
    expect(image).toMatchObject({ kind: 'image', width: 40, height: 30 });
    const zip = await sent(
      'POST /v1/uploads',
      await upload(writeZip([storedEntry('photos/a.png', await png())]), 'photos.zip'),
    );
    expect(zip.kind).toBe('zip');

    // The second row's photo does not exist: the batch ends partial, with a row to replay.
    const body = {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: records(2, (i) => (i === 1 ? { [imageVar]: '/no/such/photo.jpg' } : {})) },
    };
    const preflight = await sent(
      'POST /v1/render-batches/preflight',
      await server.api('/v1/render-batches/preflight', { method: 'POST', json: body }),
    );
    expect(preflight.invalid).toBe(1);
    const created = await sent(
      'POST /v1/render-batches',
      await server.api('/v1/render-batches', { method: 'POST', json: body }),
    );
    expect(await waitForBatch(server, created.id)).toMatchObject({ status: 'partial' });
    await sent('GET /v1/render-batches', await server.api('/v1/render-batches'));
    await sent('GET /v1/render-batches/:id', await server.api(`/v1/render-batches/${created.id}`));
    await sent(
      'GET /v1/render-batches/:id/renders',
      await server.api(`/v1/render-batches/${created.id}/renders?limit=1`),
    );
    await sent(
      'GET /v1/render-batches/:id/bundle',
      await server.api(`/v1/render-batches/${created.id}/bundle?manifest=true`),
    );
    await sent(
      'GET /v1/render-batches/template-fields',
      await server.api(`/v1/render-batches/template-fields?templateId=${template.id}`),
    );
    await sent(
      'POST /v1/render-batches/:id/replay',
      await server.api(`/v1/render-batches/${created.id}/replay`, { method: 'POST' }),
    );
    await waitForBatch(server, created.id);
    await sent(
      'POST /v1/render-batches/:id/cancel',
      await server.api(`/v1/render-batches/${created.id}/cancel`, { method: 'POST' }),
    );

    // The event stream of a finished batch: one progress event, then the end.
    const events = await server.api(`/v1/render-batches/${created.id}/events`);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await events.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('event: '))
      .map((frame) => {
        const [, name = '', data = ''] = /^event: (\w+)\ndata: (.*)$/s.exec(frame) ?? [];
        return { name, data: JSON.parse(data) as Json };
      });
    expect(frames.map((frame) => frame.name)).toEqual(['progress', 'end']);
    expect(BatchProgressEvent.parse(frames[0]!.data)).toEqual(frames[0]!.data);
    expect(Batch.parse(frames[1]!.data)).toEqual(frames[1]!.data);

    await sent(
      'DELETE /v1/render-batches/:id',
      await server.api(`/v1/render-batches/${created.id}`, { method: 'DELETE' }),
    );
  });

  it('sends the declared workspace templates, assets, imported packs and fonts', async () => {
    const fork = await sent(
      'POST /v1/catalog/:id/fork',
      await server.api(`/v1/catalog/${template.id}/fork`, {
        method: 'POST',
        json: { name: 'Schema copy' },
      }),
    );
    await sent('GET /v1/templates', await server.api('/v1/templates'));
    await sent('GET /v1/templates/:id', await server.api(`/v1/templates/${fork.id}`));
    await sent(
      'PATCH /v1/templates/:id',
      await server.api(`/v1/templates/${fork.id}`, {
        method: 'PATCH',
        json: { name: 'Schema copy, edited', baseVersion: fork.version },
      }),
    );
    await sent(
      'POST /v1/templates/:id/assets',
      await server.api(`/v1/templates/${fork.id}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: await png(),
      }),
    );
    const pack = await server.api(`/v1/templates/${fork.id}/pack`);
    expect(pack.status).toBe(200);
    await sent(
      'POST /v1/templates/import',
      await server.api('/v1/templates/import', {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: Buffer.from(await pack.arrayBuffer()),
      }),
    );

    const fontBytes = testFont(MONTSERRAT, 'Schema Display');
    const uploadFont = () =>
      server.api('/v1/fonts?name=display.ttf', {
        method: 'POST',
        headers: { 'content-type': 'font/ttf' },
        body: fontBytes,
      });
    const font = await sent('POST /v1/fonts', await uploadFont());
    // The same bytes again: the stored font, 200.
    await sent('POST /v1/fonts', await uploadFont());
    await sent('GET /v1/fonts', await server.api('/v1/fonts'));
    await sent('GET /v1/fonts/:id', await server.api(`/v1/fonts/${font.id}`));
  });

  it('answers problems in the declared shape, extension members and all', async () => {
    await refused('GET /v1/catalog/:id', await server.api('/v1/catalog/tmpl_nope'), 404);
    const invalid = await refused(
      'POST /v1/render-batches',
      await server.api('/v1/render-batches', {
        method: 'POST',
        json: { templateId: template.id, sourceType: 'json-array', source: { records: [] } },
      }),
      422,
    );
    expect(invalid.errors.length).toBeGreaterThan(0);
    await refused('GET /v1/uploads/:id', await server.api('/v1/uploads/upl_nope'), 404);
    const [item] = await (await server.api('/v1/catalog')).json();
    await refused(
      'GET /v1/thumbnails/:id/:file',
      await server.fetch(String(item.thumbnail).replace(/exp=\d+/, 'exp=1000')),
      403,
    );
  });

  it('leaves no declared JSON success unchecked', () => {
    const unchecked = routes.flatMap(declaredJsonSuccesses).filter((key) => !checked.has(key));
    expect(unchecked, 'add a request for each to the tests above').toEqual([]);
  });
});
