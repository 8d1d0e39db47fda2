import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../main/json/json-depth.js';
import { startTestServer, type Json, type TestServer } from '../helpers/test-server.js';

/**
 * Very deep JSON once answered 500 `internal` with nothing logged: JSON.parse copes with any
 * depth, the recursive walks after it (the Idempotency-Key fingerprint, batch records) do not.
 */

let server: TestServer;
let sampleValues: Json;

beforeAll(async () => {
  server = await startTestServer();
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
