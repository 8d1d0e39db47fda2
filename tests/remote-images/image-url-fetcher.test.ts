import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageUrlFailure } from '../../main/remote-images/image-url-failure.js';
import { ImageUrlFetcher } from '../../main/remote-images/image-url-fetcher.js';
import { imageRoute, solidPng, startImageHost, type ImageHost } from '../helpers/image-host.js';

/** The failure a fetch ends in (the test fails when it succeeds). */
async function failure(promise: Promise<unknown>): Promise<ImageUrlFailure> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ImageUrlFailure);
  return outcome as ImageUrlFailure;
}

describe('fetching an image URL', () => {
  let host: ImageHost;
  let other: ImageHost;
  let png: Buffer;

  beforeAll(async () => {
    png = await solidPng();
    other = await startImageHost({ '/photo.png': imageRoute(png) });
    host = await startImageHost({
      '/photo.png': imageRoute(png),
      '/page.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>'),
      '/to-other': (_req, res) =>
        res.writeHead(302, { location: `${other.origin}/photo.png` }).end(),
      '/to-localhost': (_req, res) =>
        res
          .writeHead(302, { location: `http://localhost:${new URL(host.origin).port}/photo.png` })
          .end(),
      '/to-self': (_req, res) => res.writeHead(302, { location: '/photo.png' }).end(),
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
      '/endless.png': (_req, res) => {
        // No Content-Length: the limit must be enforced while the bytes stream in.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(16 * 1024, 1);
        const timer = setInterval(() => res.write(chunk), 1);
        res.on('close', () => clearInterval(timer));
      },
      '/declared-huge.png': (_req, res) =>
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 50_000_000 }).end(),
      '/slow.png': (_req, res) => {
        const timer = setTimeout(
          () => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
          5000,
        );
        res.on('close', () => clearTimeout(timer));
      },
    });
  });
  afterAll(async () => {
    await host.close();
    await other.close();
  });

  const trusting = (limits = {}) =>
    new ImageUrlFetcher({ testOnlyTrustedOrigins: [host.origin], limits });

  it("refuses the test's own loopback server: 127.0.0.1 is not a public address", async () => {
    const refused = await failure(new ImageUrlFetcher().fetch(`${host.origin}/photo.png`, []));
    expect(refused.code).toBe('image-url-refused');
    expect(refused.message).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  });

  it('refuses a name after resolving it: localhost resolves to a loopback address', async () => {
    const port = new URL(host.origin).port;
    const refused = await failure(
      new ImageUrlFetcher().fetch(`http://localhost:${port}/photo.png`, []),
    );
    expect(refused.code).toBe('image-url-refused');
    expect(refused.message).toMatch(/localhost:\d+ is at (127\.0\.0\.1|::1), a loopback address/);
  });

  it('refuses IPv4-mapped IPv6, unspecified and private literals without connecting', async () => {
    for (const url of [
      'http://[::ffff:127.0.0.1]:9/x.png',
      'http://0.0.0.0:9/x.png',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/x.png',
      'http://100.64.0.1/x.png',
    ])
      expect((await failure(new ImageUrlFetcher().fetch(url, []))).code, url).toBe(
        'image-url-refused',
      );
  });

  it('refuses other schemes and URLs with credentials', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/x.png',
      'http://u:p@example.com/x.png',
    ])
      expect((await failure(new ImageUrlFetcher().fetch(url, []))).code, url).toBe(
        'image-url-refused',
      );
  });

  it('refuses a host that is not on the allow-list before any connection', async () => {
    const refused = await failure(
      trusting().fetch(`${host.origin}/photo.png`, ['*.cdn.example.com']),
    );
    expect(refused.code).toBe('image-url-refused');
    expect(refused.message).toMatch(/not on the image URL allow-list/);
  });

  it('fetches an image from a trusted origin with its validators', async () => {
    const outcome = await trusting().fetch(`${host.origin}/photo.png`, ['127.0.0.1']);
    expect(outcome.kind).toBe('fetched');
    if (outcome.kind !== 'fetched') return;
    expect(outcome.bytes.equals(png)).toBe(true);
    expect(outcome.contentType).toBe('image/png');
    expect(outcome.etag).toBe('"v1"');
  });

  it('revalidates with If-None-Match and takes a 304', async () => {
    const before = host.conditionalHits.get('/photo.png') ?? 0;
    const outcome = await trusting().fetch(`${host.origin}/photo.png`, [], { etag: '"v1"' });
    expect(outcome.kind).toBe('not-modified');
    expect(host.conditionalHits.get('/photo.png')).toBe(before + 1);
  });

  it('checks every redirect: a hop to another loopback server is refused', async () => {
    const refused = await failure(trusting().fetch(`${host.origin}/to-other`, []));
    expect(refused.code).toBe('image-url-refused');
    expect(other.hits.get('/photo.png') ?? 0).toBe(0);
    const viaName = await failure(trusting().fetch(`${host.origin}/to-localhost`, []));
    expect(viaName.code).toBe('image-url-refused');
  });

  it('follows a redirect within the trusted origin, and stops after 5', async () => {
    expect((await trusting().fetch(`${host.origin}/to-self`, [])).kind).toBe('fetched');
    const loop = await failure(trusting().fetch(`${host.origin}/loop`, []));
    expect(loop.code).toBe('image-url-unreachable');
    expect(loop.message).toMatch(/more than 5 times/);
  });

  it('stops a download past the size limit, declared or streamed', async () => {
    const fetcher = trusting({ maxBytes: 256 * 1024 });
    const streamed = await failure(fetcher.fetch(`${host.origin}/endless.png`, []));
    expect(streamed.code).toBe('image-url-too-large');
    const declared = await failure(trusting().fetch(`${host.origin}/declared-huge.png`, []));
    expect(declared.code).toBe('image-url-too-large');
    expect(declared.message).toMatch(/over 20 MB/);
  });

  it('refuses what is not an image by its content type', async () => {
    const page = await failure(trusting().fetch(`${host.origin}/page.html`, []));
    expect(page.code).toBe('image-url-not-an-image');
    expect(page.message).toMatch(/text\/html/);
  });

  it('gives up after the total time limit', async () => {
    const started = Date.now();
    const slow = await failure(
      trusting({ totalTimeoutMs: 300 }).fetch(`${host.origin}/slow.png`, []),
    );
    expect(slow.code).toBe('image-url-timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('names a missing file and a closed port as unreachable', async () => {
    const missing = await failure(trusting().fetch(`${host.origin}/nothing.png`, []));
    expect(missing.code).toBe('image-url-unreachable');
    expect(missing.message).toMatch(/answered 404/);
    // A port nothing listens on, trusted like the host.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = await failure(
      new ImageUrlFetcher({ testOnlyTrustedOrigins: [closed] }).fetch(`${closed}/x.png`, []),
    );
    expect(refused.code).toBe('image-url-unreachable');
    expect(refused.message).toMatch(/refused the connection/);
  });
});
