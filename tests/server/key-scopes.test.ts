import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { uiSessionHeaders } from '../helpers/ui-session.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { ApiRequest, Json, TestResponse } from '../helpers/test-server.js';

let server: InjectServer;
let template: CatalogDetail;

beforeAll(async () => {
  server = await buildInjectServer();
  template = await catalogDetail(server, 'tmpl_product_promo');
});
afterAll(() => server.stop());

async function createKey(body: Json): Promise<Json> {
  const res = await server.api('/v1/api-keys', { method: 'POST', json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** server.api with another key. */
function withKey(secret: string) {
  return (pathname: string, init: ApiRequest = {}) =>
    server.api(pathname, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${secret}` },
    });
}

async function fork(name: string): Promise<Json> {
  const res = await server.api(`/v1/catalog/${template.id}/fork`, {
    method: 'POST',
    json: { name },
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function expectScopeRefused(res: TestResponse, needs: string, has: string): Promise<void> {
  const problem: Json = await expectProblem(res, 403, 'insufficient-scope');
  expect(problem).toMatchObject({ requiredScope: needs, scope: has });
  expect(problem.detail).toContain(`"${needs}"`);
}

describe('creating keys with a scope', () => {
  it('creates each scope, shows it in the list, and takes admin: true as the admin scope', async () => {
    const read = await createKey({ name: 'reader', scope: 'read' });
    const templates = await createKey({ name: 'designer', scope: 'templates' });
    const plain = await createKey({ name: 'script' });
    const legacy = await createKey({ name: 'old admin', admin: true });
    expect(read).toMatchObject({ scope: 'read', admin: false, secret: expect.any(String) });
    expect(templates).toMatchObject({ scope: 'templates', admin: false });
    expect(plain).toMatchObject({ scope: 'render', admin: false });
    expect(legacy).toMatchObject({ scope: 'admin', admin: true });

    const list: Json[] = await (await server.api('/v1/api-keys')).json();
    const scopes = Object.fromEntries(list.map((key) => [key.name, key.scope]));
    expect(scopes).toMatchObject({
      reader: 'read',
      designer: 'templates',
      script: 'render',
      'old admin': 'admin',
      RENDER_DESK_API_KEY: 'admin',
    });
    expect(JSON.stringify(list)).not.toContain(read.secret);

    for (const body of [
      { name: 'x', scope: 'owner' },
      { name: 'x', scope: 'read', admin: true },
      { name: 'x', scope: 'admin', admin: false },
    ]) {
      const problem = await expectProblem(
        await server.api('/v1/api-keys', { method: 'POST', json: body }),
        422,
        'validation-failed',
      );
      expect(problem.errors?.[0]?.path, JSON.stringify(body)).toMatch(/^(scope|admin)$/);
    }
  });
});

describe('what each scope may do', () => {
  it('lets read keys look at the catalog, templates, brands, fonts and the account, and nothing more', async () => {
    const read = withKey((await createKey({ name: 'looker', scope: 'read' })).secret);
    for (const path of [
      '/v1/catalog',
      `/v1/catalog/${template.id}`,
      '/v1/templates',
      '/v1/brand-profile',
      '/v1/brands',
      '/v1/fonts',
      '/v1/account',
      '/v1/account/ledger',
      '/v1/render-batches',
      '/v1/system',
    ]) {
      expect((await read(path)).status, path).toBe(200);
    }
    const before = (await (await server.api('/v1/account')).json()).balance;
    await expectScopeRefused(
      await read('/v1/render', {
        method: 'POST',
        json: { templateId: template.id, values: template.sampleValues },
      }),
      'render',
      'read',
    );
    await expectScopeRefused(
      await read('/v1/uploads?filename=a.csv', { method: 'POST', body: 'a,b\n1,2\n' }),
      'render',
      'read',
    );
    await expectScopeRefused(
      await read('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: template.id,
          sourceType: 'json-array',
          source: { records: [template.sampleValues] },
        },
      }),
      'render',
      'read',
    );
    expect((await (await server.api('/v1/account')).json()).balance).toBe(before);
  });

  it('refuses template, brand and font edits to render and read keys, and leaves them as they were', async () => {
    const mine = await fork('Shared promo');
    const brandBefore = await (await server.api('/v1/brand-profile')).json();
    const brand = await (
      await server.api('/v1/brands', { method: 'POST', json: { name: 'House brand' } })
    ).json();
    for (const scope of ['render', 'read']) {
      const key = withKey((await createKey({ name: `no edits ${scope}`, scope })).secret);
      const attempts: [string, string, unknown?][] = [
        ['POST', `/v1/catalog/${template.id}/fork`, { name: 'Copy' }],
        ['PATCH', `/v1/templates/${mine.id}`, { name: 'Overwritten' }],
        ['DELETE', `/v1/templates/${mine.id}`],
        ['PUT', '/v1/brand-profile', { ...brandBefore, name: 'Overwritten' }],
        ['POST', '/v1/brands', { name: 'Another' }],
        ['PUT', `/v1/brands/${brand.id}`, { name: 'Overwritten', profile: brand.profile }],
        ['DELETE', `/v1/brands/${brand.id}`],
        ['POST', `/v1/brands/${brand.id}/default`],
        ['DELETE', '/v1/fonts/font_nope'],
      ];
      for (const [method, path, json] of attempts) {
        await expectScopeRefused(
          await key(path, { method, ...(json !== undefined ? { json } : {}) }),
          'templates',
          scope,
        );
      }
      for (const [path, type] of [
        [`/v1/templates/${mine.id}/assets`, 'image/png'],
        ['/v1/templates/import', 'application/zip'],
        ['/v1/fonts', 'font/ttf'],
      ] as const) {
        await expectScopeRefused(
          await key(path, {
            method: 'POST',
            headers: { 'content-type': type },
            body: Buffer.from('not read'),
          }),
          'templates',
          scope,
        );
      }
    }
    const after = await (await server.api(`/v1/templates/${mine.id}`)).json();
    expect(after).toMatchObject({ name: 'Shared promo', version: 1 });
    expect(await (await server.api('/v1/brand-profile')).json()).toEqual(brandBefore);
    expect((await server.api(`/v1/brands/${brand.id}`)).status).toBe(200);
  });

  it('lets templates keys edit workspace templates and brands, and render', async () => {
    const designer = withKey((await createKey({ name: 'designer 2', scope: 'templates' })).secret);
    const forked = await designer(`/v1/catalog/${template.id}/fork`, {
      method: 'POST',
      json: { name: 'Designer copy' },
    });
    expect(forked.status).toBe(201);
    const { id } = await forked.json();
    const patched = await designer(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: { name: 'Designer copy 2', baseVersion: 1 },
    });
    expect(patched.status).toBe(200);
    const brand = await designer('/v1/brands', { method: 'POST', json: { name: 'Designer' } });
    expect(brand.status).toBe(201);
    const render = await designer('/v1/render', {
      method: 'POST',
      json: { templateId: id, values: template.sampleValues },
    });
    expect(render.status).toBe(200);
    expect((await designer(`/v1/templates/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('keeps keys, credits, the subscription, preferences and UI links for admin keys', async () => {
    const designer = withKey((await createKey({ name: 'designer 3', scope: 'templates' })).secret);
    const attempts: [string, string, unknown?][] = [
      ['GET', '/v1/api-keys'],
      ['POST', '/v1/api-keys', { name: 'escalate', scope: 'admin' }],
      ['DELETE', '/v1/api-keys/key_nope'],
      ['POST', '/v1/account/credits', { amount: 1000 }],
      ['PUT', '/v1/account/subscription', { status: 'active' }],
      ['PUT', '/v1/system/preferences', { workers: 1 }],
      ['POST', '/v1/ui-sessions'],
    ];
    for (const [method, path, json] of attempts) {
      await expectScopeRefused(
        await designer(path, { method, ...(json !== undefined ? { json } : {}) }),
        'admin',
        'templates',
      );
    }
    // The UI session acts as admin.
    const session = await uiSessionHeaders(server);
    expect((await server.fetch(`${server.url}/v1/api-keys`, { headers: session })).status).toBe(
      200,
    );
  });
});

describe('the OpenAPI document', () => {
  it('names the least scope of every operation and documents the scopes', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    const op = (path: string, method: string) => doc.paths[path][method];
    for (const [path, method, scope] of [
      ['/v1/catalog', 'get', 'read'],
      ['/v1/render-batches/{id}', 'get', 'read'],
      ['/v1/render', 'post', 'render'],
      ['/v1/render-batches', 'post', 'render'],
      ['/v1/uploads', 'post', 'render'],
      ['/v1/templates/{id}', 'patch', 'templates'],
      ['/v1/brands', 'post', 'templates'],
      ['/v1/fonts', 'post', 'templates'],
      ['/v1/api-keys', 'post', 'admin'],
      ['/v1/account/credits', 'post', 'admin'],
    ] as const) {
      expect(op(path, method)['x-required-scope'], `${method} ${path}`).toBe(scope);
      expect(op(path, method).security).toEqual([{ bearer: [scope] }]);
      if (scope !== 'read') expect(op(path, method).responses['403']).toBeDefined();
    }
    expect(op('/v1/bundles/{file}', 'get').security).toEqual([]);
    expect(doc.components.securitySchemes.bearer.description).toMatch(/`templates`/);
    const body = op('/v1/api-keys', 'post').requestBody.content['application/json'].schema;
    expect(body.properties.scope.enum).toEqual(['read', 'render', 'templates', 'admin']);
    const listed = op('/v1/api-keys', 'get').responses['200'].content['application/json'].schema;
    expect(listed.items.properties.scope.enum).toEqual(['read', 'render', 'templates', 'admin']);
  });
});
