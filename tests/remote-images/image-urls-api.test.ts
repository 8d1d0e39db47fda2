import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageUrlFetcher } from '../../main/remote-images/image-url-fetcher.js';
import { imageRoute, solidPng, startImageHost, type ImageHost } from '../helpers/image-host.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const TEMPLATE = 'tmpl_product_promo';

describe('image URLs in data, through the API', () => {
  let host: ImageHost;
  let server: TestServer;

  beforeAll(async () => {
    const png = await solidPng('#cc3366');
    host = await startImageHost({
      '/photo.png': imageRoute(png),
      '/page.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>'),
      '/broken.png': (_req, res) =>
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('not a png at all')),
      // Compressed for the transfer (Content-Encoding), as servers do whatever was asked.
      '/gzip-photo.png': encodedRoute('gzip', zlib.gzipSync(png)),
      '/br-photo.png': encodedRoute('br', zlib.brotliCompressSync(png)),
      '/deflate-photo.png': encodedRoute('deflate', zlib.deflateSync(png)),
      '/raw-deflate-photo.png': encodedRoute('deflate', zlib.deflateRawSync(png)),
      '/gzip-text.png': encodedRoute(
        'gzip',
        zlib.gzipSync(Buffer.alloc(9 * 1024 * 1024, 'not an image, ')),
      ),
      '/gzip-bomb.png': encodedRoute('gzip', zlib.gzipSync(Buffer.alloc(30 * 1024 * 1024))),
      '/zstd-photo.png': encodedRoute('zstd', png),
      '/gzip-truncated.png': encodedRoute('gzip', zlib.gzipSync(png).subarray(0, 60)),
    });
    // The seam: only this test's image host is exempt from the loopback rule.
    server = await startTestServer(
      {},
      { imageUrlFetcher: new ImageUrlFetcher({ testOnlyTrustedOrigins: [host.origin] }) },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await host?.close();
  });

  const render = (photo: string) =>
    server.api('/v1/render', {
      method: 'POST',
      json: { templateId: TEMPLATE, values: { headline: 'Serum', price: 24.5, photo } },
    });

  it('are off by default: a URL is a 422 that says how to turn them on', async () => {
    expect(await (await server.api('/v1/system/image-urls')).json()).toEqual({
      enabled: false,
      allowedHosts: [],
    });
    const res = await render(`${host.origin}/photo.png`);
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.code).toBe('url-not-allowed');
    expect(problem.detail).toMatch(/PUT \/v1\/system\/image-urls/);
    expect(problem.errors[0]).toMatchObject({ path: 'values.photo', code: 'url-not-allowed' });
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  });

  it('refuses a host name that is not a host in the setting', async () => {
    const res = await server.api('/v1/system/image-urls', {
      method: 'PUT',
      json: { enabled: true, allowedHosts: ['https://cdn.example.com/'] },
    });
    expect(res.status).toBe(422);
  });

  it('render once on, from the disk cache afterwards, revalidated with If-None-Match', async () => {
    const saved = await server.api('/v1/system/image-urls', {
      method: 'PUT',
      json: { enabled: true, allowedHosts: [] },
    });
    expect(saved.status).toBe(200);
    const first = await render(`${host.origin}/photo.png`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const firstBytes = Buffer.from(await first.arrayBuffer());
    expect(host.hits.get('/photo.png')).toBe(1);
    const cacheDir = path.join(server.core.dataDir, 'cache', 'image-urls');
    expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.img'))).toHaveLength(1);

    // The host says no-cache: the second use asks again, gets 304 and draws the cached copy.
    const second = await render(`${host.origin}/photo.png`);
    expect(second.status).toBe(200);
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
    expect(host.hits.get('/photo.png')).toBe(2);
    expect(host.conditionalHits.get('/photo.png')).toBe(1);
  });

  it('decodes a body sent with Content-Encoding and decides its type by the decoded bytes', async () => {
    await server.api('/v1/system/image-urls', {
      method: 'PUT',
      json: { enabled: true, allowedHosts: [] },
    });
    for (const route of [
      '/gzip-photo.png',
      '/br-photo.png',
      '/deflate-photo.png',
      '/raw-deflate-photo.png',
    ]) {
      const res = await render(`${host.origin}${route}`);
      expect(res.status, route).toBe(200);
    }
    const refusals: [string, string, RegExp][] = [
      ['/gzip-text.png', 'image-url-not-an-image', /not a readable image/],
      ['/gzip-bomb.png', 'image-url-too-large', /over 20 MB/],
      ['/zstd-photo.png', 'image-url-not-an-image', /Content-Encoding "zstd"/],
      ['/gzip-truncated.png', 'image-url-not-an-image', /damaged or truncated/],
    ];
    for (const [route, code, detail] of refusals) {
      const res = await render(`${host.origin}${route}`);
      expect(res.status, route).toBe(422);
      const problem = await res.json();
      expect(problem.code, route).toBe(code);
      expect(problem.detail, route).toMatch(detail);
      expect(problem.detail, route).not.toMatch(/the SVG/);
    }
  });

  it('takes a brand logo by URL and fills brand-bound images from it', async () => {
    const put = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { logo: `${host.origin}/photo.png` },
    });
    expect(put.status).toBe(200);
    const before = host.hits.get('/photo.png') ?? 0;
    const res = await render('asset:product.jpg');
    expect(res.status).toBe(200);
    // Brand-bound logo, omitted: drawn from the brand's URL (revalidated: no-cache).
    expect(res.headers.get('x-brand-fill')).toMatch(/logo=brand/);
    expect(host.hits.get('/photo.png')).toBeGreaterThan(before);
    const bad = await server.api('/v1/brand-profile', {
      method: 'PUT',
      json: { logo: `${host.origin}/page.html` },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).code).toBe('image-url-not-an-image');
    await server.api('/v1/brand-profile', { method: 'PUT', json: { logo: null } });
  });

  it('still refuses loopback servers other than the trusted one (the rule is on)', async () => {
    const port = new URL(server.url).port;
    const res = await render(`http://localhost:${port}/v1/openapi.json`);
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.code).toBe('image-url-refused');
    expect(problem.errors[0]).toMatchObject({ path: 'values.photo', code: 'image-url-refused' });
  });

  it('names every failing row with its code in pre-flight', async () => {
    const row = (photo: string) => ({ headline: 'Serum', price: 10, photo });
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: {
        templateId: TEMPLATE,
        sourceType: 'json-array',
        source: {
          records: [
            row(`${host.origin}/photo.png`),
            row(`${host.origin}/missing.png`),
            row(`${host.origin}/page.html`),
            row(`${host.origin}/broken.png`),
            row('http://169.254.169.254/latest/meta-data'),
          ],
        },
      },
    });
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result.valid).toBe(1);
    const codes = Object.fromEntries(
      result.problems.map((p: { rowIndex: number; errors: { code?: string }[] }) => [
        p.rowIndex,
        p.errors.map((e) => e.code),
      ]),
    );
    expect(codes).toEqual({
      1: ['image-url-unreachable'],
      2: ['image-url-not-an-image'],
      3: ['image-url-not-an-image'],
      4: ['image-url-refused'],
    });
  });

  it('fails a batch row with the code in its error and renders the others', async () => {
    const created = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: TEMPLATE,
        sourceType: 'json-array',
        source: {
          records: [
            { headline: 'A', price: 1, photo: `${host.origin}/photo.png` },
            { headline: 'B', price: 2, photo: `${host.origin}/missing.png` },
          ],
        },
      },
    });
    expect(created.status).toBe(202);
    const { id } = await created.json();
    let batch;
    for (let i = 0; i < 200; i++) {
      batch = await (await server.api(`/v1/render-batches/${id}`)).json();
      if (!['queued', 'running'].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(batch.status).toBe('partial');
    const manifest = await (await server.api(`/v1/render-batches/${id}/renders`)).json();
    const failed = manifest.rows.find((r: { status: string }) => r.status === 'failed');
    expect(failed.error).toMatch(/values\.photo: .*answered 404.* \[image-url-unreachable\]/);
  });

  it('honours the allow-list: a host outside it is refused', async () => {
    await server.api('/v1/system/image-urls', {
      method: 'PUT',
      json: { enabled: true, allowedHosts: ['*.cdn.example.com'] },
    });
    const res = await render(`${host.origin}/photo.png`);
    expect(res.status).toBe(422);
    expect((await res.json()).code).toBe('image-url-refused');
  });

  it('is in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    expect(doc.paths['/v1/system/image-urls'].put['x-required-scope']).toBe('admin');
    expect(doc.paths['/v1/system/image-urls'].get).toBeDefined();
  });
});

/** A route that serves `body` as a PNG sent with `Content-Encoding: <encoding>`. */
function encodedRoute(
  encoding: string,
  body: Buffer,
): Parameters<typeof startImageHost>[0][string] {
  return (_req, res) =>
    res
      .writeHead(200, {
        'content-type': 'image/png',
        'content-encoding': encoding,
        'content-length': body.length,
      })
      .end(body);
}
