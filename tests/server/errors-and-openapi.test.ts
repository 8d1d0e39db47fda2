import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../main/server/route-registry.js';
import { openApiPath } from '../../main/server/routes/v1/openapi-routes.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
beforeAll(async () => {
  server = await buildInjectServer();
});
afterAll(() => server.stop());

describe('problem+json errors', () => {
  it('answers 404 problem+json for an unknown route', async () => {
    const res = await server.api('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status: 404,
      code: 'not-found',
    });
  });

  it('answers 413 for a body over the default limit', async () => {
    const res = await server.api('/v1/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload-too-large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await server.api('/v1/render', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(res.status).toBe(415);
    const body = await res.json();
    expect(body.code).toBe('unsupported-media-type');
    expect(body.detail).toBe(
      'Content-Type "text/plain" is not accepted here; send application/json.',
    );
  });

  it('refuses prototype-poisoning JSON', async () => {
    const res = await server.api('/v1/render', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"templateId":"tmpl_x","values":{},"__proto__":{"admin":true}}',
    });
    expect(res.status).toBe(400);
    // Valid JSON: the message must not only blame the syntax.
    expect((await res.json()).detail).toContain('__proto__');
  });
});

describe('GET /v1/openapi.json', () => {
  it('describes every endpoint with the schemas that validate requests', async () => {
    const res = await server.api('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/v1/render', 'post'],
      ['/v1/catalog', 'get'],
      ['/v1/catalog/{id}', 'get'],
      ['/v1/catalog/taxonomy', 'get'],
      ['/v1/account', 'get'],
      ['/v1/account/ledger', 'get'],
      ['/v1/account/credits', 'post'],
      ['/v1/brand-profile', 'put'],
      ['/v1/api-keys', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const renderBody = doc.paths['/v1/render'].post.requestBody.content['application/json'].schema;
    expect(renderBody.required).toContain('templateId');
    expect(renderBody.properties.format.enum).toEqual(['png', 'jpeg', 'webp', 'avif', 'pdf']);
    expect(renderBody.properties.background.enum).toEqual(['template', 'transparent']);
    expect(renderBody.properties.scale.maximum).toBe(4);
    expect(renderBody.properties.cropMarks.type).toBe('boolean');
    expect(Object.keys(doc.paths['/v1/render'].post.responses['200'].content)).toEqual([
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/avif',
      'application/pdf',
      'application/zip',
    ]);
    const market = doc.paths['/v1/catalog'].get.parameters.find(
      (p: { name: string }) => p.name === 'market',
    );
    expect(market.schema.enum).toEqual(['global', 'vietnam']);
  });

  it('answers the same JSON document at every request, with an operation for every declared route', async () => {
    const first = await server.api('/v1/openapi.json');
    const second = await server.api('/v1/openapi.json');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await first.text();
    expect(await second.text()).toBe(text);
    const doc = JSON.parse(text) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const declared = declaredRoutes(server.core.server).map(
      (route) => `${String(route.method)} ${openApiPath(route.url)}`,
    );
    expect(documented.sort()).toEqual([...new Set(declared)].sort());
  });

  it('resolves every $ref within the document, recursive template schemas included', async () => {
    const doc = (await (await server.api('/v1/openapi.json')).json()) as Record<string, unknown>;
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
    };
    walk(doc);
    // Stacks hold layers: the layer schema refers to itself, so there are references to follow.
    expect(refs.length).toBeGreaterThan(0);
    const resolve = (ref: string): unknown =>
      ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc);
    expect(refs.filter((ref) => !ref.startsWith('#/') || resolve(ref) === undefined)).toEqual([]);
  });

  it('lets problems carry extension members, such as 402 needed and balance', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    const problem =
      doc.paths['/v1/render'].post.responses['402'].content['application/problem+json'].schema;
    const resolved = problem.$ref
      ? doc.components.schemas[String(problem.$ref).split('/').at(-1) ?? '']
      : problem;
    expect(resolved.additionalProperties).not.toBe(false);
    expect(resolved.properties.needed.type).toBe('integer');
    expect(resolved.properties.balance.type).toBe('integer');
  });
});

describe('brand profile', () => {
  it('stores the profile and refuses an unreadable logo', async () => {
    const initial = await (await server.api('/v1/brand-profile')).json();
    expect(initial).toMatchObject({ name: '', logo: null });
    const saved = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { ...initial, name: 'Cà Phê Sữa', colours: { ...initial.colours, primary: '#C2410C' } },
    });
    expect(saved.status).toBe(200);
    expect((await (await server.api('/v1/brand-profile')).json()).colours.primary).toBe('#C2410C');

    const bad = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { ...initial, logo: '/no/such/logo.png' },
    });
    expect(bad.status).toBe(422);
    const wrongColour = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { ...initial, colours: { ...initial.colours, primary: 'red' } },
    });
    expect(wrongColour.status).toBe(422);
    expect((await wrongColour.json()).errors[0].path).toBe('colours.primary');
  });
});
