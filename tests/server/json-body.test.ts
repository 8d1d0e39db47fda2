import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../main/json/json-depth.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * Very deep JSON once answered 500 `internal` with nothing logged: JSON.parse copes with any
 * depth, the recursive walks after it (the Idempotency-Key fingerprint, batch records) do not.
 */

let server: InjectServer;
let sampleValues: Json;

beforeAll(async () => {
  server = await buildInjectServer();
  sampleValues = (await (await server.api('/v1/catalog/tmpl_product_promo')).json()).sampleValues;
});

afterAll(async () => {
  await server?.stop();
});

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

function send(pathname: string, body: string, headers: Record<string, string> = {}) {
  return server.api(pathname, {
    method: pathname.startsWith('/v1/templates/') ? 'PATCH' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function expectTooDeep(response: Response): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({
    code: 'json-too-deep',
    detail: expect.stringMatching(/more than 64 levels deep/),
  });
}

describe('deeply nested JSON', () => {
  it('is a 400 json-too-deep for a render with an Idempotency-Key, not a 500', async () => {
    const body = `{"templateId":"tmpl_product_promo","values":{"headline":${nested(20_000)}}}`;
    await expectTooDeep(await send('/v1/render', body, { 'idempotency-key': 'deep-json-1' }));
  });

  it('is a 400 json-too-deep inside batch records, for a batch and for its pre-flight', async () => {
    const body = `{"templateId":"tmpl_product_promo","sourceType":"json-array","source":{"records":[{"headline":${nested(20_000)}}]}}`;
    await expectTooDeep(await send('/v1/render-batches', body));
    await expectTooDeep(await send('/v1/render-batches/preflight', body));
  });

  it('is a 400 json-too-deep on every other JSON endpoint too', async () => {
    const fork: Json = await (
      await server.api('/v1/catalog/tmpl_product_promo/fork', { method: 'POST', json: {} })
    ).json();
    const deep = `{"name":${nested(5_000)}}`;
    for (const pathname of [
      `/v1/templates/${fork.id}`,
      '/v1/brands',
      '/v1/api-keys',
      '/v1/catalog/tmpl_product_promo/fork',
    ]) {
      await expectTooDeep(await send(pathname, deep));
    }
  });

  it('is judged by structure only: brackets inside strings do not count', async () => {
    const values = { ...sampleValues, headline: '['.repeat(5_000) };
    const response = await server.api('/v1/render', {
      method: 'POST',
      headers: { 'idempotency-key': 'brackets-in-a-string' },
      json: { templateId: 'tmpl_product_promo', values },
    });
    expect(response.status).toBe(200);
  });

  it('is accepted up to the limit, records included', async () => {
    const record = `{"headline":"Deep","subtitle":"ok","extra":${nested(MAX_JSON_DEPTH - 4)}}`;
    const body = `{"templateId":"tmpl_product_promo","sourceType":"json-array","source":{"records":[${record}]}}`;
    expect(jsonDepth(body)).toBe(MAX_JSON_DEPTH);
    const response = await send('/v1/render-batches/preflight', body);
    expect(response.status).toBe(200);
  });

  it('is a 422 pack-invalid inside a template pack', async () => {
    const zip = new AdmZip();
    zip.addFile('pack.json', Buffer.from(`{"packFormat":${nested(20_000)}}`));
    const response = await server.api('/v1/templates/import', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: zip.toBuffer(),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: 'pack-invalid',
      detail: expect.stringMatching(/pack\.json nests objects and arrays more than 64 levels/),
    });
  });
});

/** `{"k0":"v","k1":"v",…}` with `count` keys. */
const wide = (count: number, prefix = 'k') =>
  `{${Array.from({ length: count }, (_, i) => `"${prefix}${i}":"v"`).join(',')}}`;

describe('JSON objects with very many keys', () => {
  it('are a 400 json-too-many-keys at once: a values object of 300,000 keys (5 MB)', async () => {
    const body = `{"templateId":"tmpl_product_promo","values":${wide(300_000)}}`;
    const started = Date.now();
    const problem = await expectProblem(
      await send('/v1/render', body, { 'idempotency-key': 'wide-values' }),
      400,
      'json-too-many-keys',
    );
    expect(problem.detail).toMatch(/more than 1,000 keys/);
    // It used to hold the API 2–6 s and answer a 422 of 44 MB.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('are a 400 json-too-many-keys in a batch record, for a batch and its pre-flight', async () => {
    const body = `{"templateId":"tmpl_product_promo","sourceType":"json-array","source":{"records":[${wide(300_000)}]}}`;
    for (const pathname of ['/v1/render-batches', '/v1/render-batches/preflight']) {
      await expectProblem(await send(pathname, body), 400, 'json-too-many-keys');
    }
  });

  it('are counted per object: many small objects and keys inside strings are fine', async () => {
    const records = Array.from({ length: 2_000 }, () => ({
      ...sampleValues,
      note: '{"a":1,"b":2}',
    }));
    const response = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: { templateId: 'tmpl_product_promo', sourceType: 'json-array', source: { records } },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it('are accepted up to 1,000 keys, and a 422 lists the first 100 problems and counts the rest', async () => {
    const body = `{"templateId":"tmpl_product_promo","values":${wide(1_000, 'unknown_')}}`;
    const response = await send('/v1/render', body);
    const problem = (await expectProblem(response, 422, 'validation-failed')) as Json;
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors[0]).toMatchObject({ path: 'values.unknown_0' });
    expect(problem.errors.length + problem.problemsNotListed).toBeGreaterThanOrEqual(1_000);
    expect(problem.detail).toMatch(
      /^1,0\d\d problems \(the first 100 are listed\): values\.unknown_0/,
    );
  });

  it('are a 422 pack-invalid inside a template pack', async () => {
    const zip = new AdmZip();
    zip.addFile('pack.json', Buffer.from(wide(5_000)));
    const response = await server.api('/v1/templates/import', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: zip.toBuffer(),
    });
    expect((await expectProblem(response, 422, 'pack-invalid')).detail).toMatch(
      /an object in pack\.json has more than 1,000 keys/,
    );
  });
});
