import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PreviewLinkSigner } from '../../main/preview-links/preview-link-signer.js';
import { PREVIEW_SECRET_KEY } from '../../main/preview-links/preview-secret.js';
import { startTestServer, testFetch, type TestServer } from '../helpers/test-server.js';

const TEMPLATE = 'tmpl_product_promo';
const VALUES = { headline: 'Preview serum', price: 24.5, photo: 'asset:product.jpg' };

describe('preview links', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const balance = async () => (await (await server.api('/v1/account')).json()).balance as number;
  const link = async (values: Record<string, unknown> = VALUES, extra = {}) => {
    const res = await server.api('/v1/preview-links', {
      method: 'POST',
      json: { templateId: TEMPLATE, target: 'og', values, ...extra },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { url: string; path: string; expiresAt: string };
  };

  it('renders without headers, charges once per distinct image, and caches by content', async () => {
    const before = await balance();
    const made = await link(VALUES, { expiresInSeconds: 3600 });
    expect(made.url.startsWith(`${server.url}/v1/preview-links/image?`)).toBe(true);
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(3590_000);

    const first = await testFetch(made.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    const etag = first.headers.get('etag')!;
    const bytes = Buffer.from(await first.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    expect(await balance()).toBe(before - 1);

    const again = await testFetch(made.url);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(etag);
    const revalidated = await testFetch(made.url, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);

    // Another link to the same image (another expiry) is the same image: not charged again.
    const sameImage = await link(VALUES, { expiresInSeconds: 7200 });
    expect(sameImage.url).not.toBe(made.url);
    const third = await testFetch(sameImage.url);
    expect(third.headers.get('etag')).toBe(etag);
    expect(await balance()).toBe(before - 1);
  });

  it('charges a new image once even when many fetch it at the same moment', async () => {
    const before = await balance();
    const made = await link({ ...VALUES, headline: 'Fetched by five at once' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => testFetch(made.url)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balance()).toBe(before - 1);
  });

  it('stores an image again when a fetch finds it drawn and charged but not stored', async () => {
    const before = await balance();
    const made = await link({ ...VALUES, headline: 'Drawn, then lost' });
    const bytes = Buffer.from(await (await testFetch(made.url)).arrayBuffer());
    const previews = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (!entry.isDirectory()) return path.basename(dir) === 'previews' ? [full] : [];
        return previews(full);
      });
    const stored = previews(server.core.dataDir).find((file) =>
      fs.readFileSync(file).equals(bytes),
    );
    expect(stored, 'the image is not in the object store').toBeDefined();
    // What an API node that stopped between its commit and its write leaves behind.
    fs.rmSync(stored!);

    const again = await testFetch(made.url);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(fs.existsSync(stored!), 'the image was not stored again').toBe(true);
    expect(fs.readFileSync(stored!).equals(bytes)).toBe(true);
    expect(await balance()).toBe(before - 1);
  });

  it('refuses an altered link with 403 url-invalid', async () => {
    const made = await link();
    for (const altered of [
      made.url.replace('v.headline=Preview', 'v.headline=Altered'),
      made.url.replace('target=og', 'target=square'),
      made.url.replace(/&sig=[0-9a-f]+/, ''),
      `${made.url}&v.discount=90`,
    ]) {
      const res = await testFetch(altered);
      expect(res.status, altered).toBe(403);
      expect((await res.json()).code).toBe('url-invalid');
    }
  });

  it('refuses a link carrying a parameter it was not signed with, naming it', async () => {
    const made = await link({ ...VALUES, headline: 'Exactly as signed' });
    expect((await testFetch(made.url)).status).toBe(200);
    for (const [extra, name] of [
      ['utm_source=cms', 'utm_source'],
      ['cb=1700000000', 'cb'],
      ['V.headline=x', 'V.headline'],
    ]) {
      const res = await testFetch(`${made.url}&${extra}`);
      expect(res.status, extra).toBe(403);
      const problem = await res.json();
      expect(problem.code).toBe('url-invalid');
      expect(problem.detail).toContain(`"${name}"`);
    }
  });

  it('refuses a link with any signed parameter given twice, the signature included', async () => {
    const made = await link({ ...VALUES, headline: 'Given once' });
    const params = new URL(made.url).searchParams;
    for (const name of ['sig', 't', 'target', 'k', 'exp', 'v.headline']) {
      // The same value again: a parser that keeps the first or the last would accept it.
      const twice = `${made.url}&${name}=${encodeURIComponent(params.get(name)!)}`;
      const res = await testFetch(twice);
      expect(res.status, name).toBe(403);
      const problem = await res.json();
      expect(problem.code, name).toBe('url-invalid');
      expect(problem.detail).toContain(`"${name}"`);
    }
  });

  it('refuses an expired link with 403 url-expired', async () => {
    const secret = server.core.store.settings.get(PREVIEW_SECRET_KEY)!;
    expect(secret).toBeTruthy();
    const keyId = (await (await server.api('/v1/api-keys')).json()).items?.[0]?.id ?? 'key';
    const query = await new PreviewLinkSigner(async () => secret).query({
      templateId: TEMPLATE,
      target: 'og',
      format: 'png',
      brand: undefined,
      keyId,
      exp: Math.floor(Date.now() / 1000) - 10,
      values: { headline: 'Old', price: '1', photo: 'asset:product.jpg' },
    });
    const res = await testFetch(`${server.url}/v1/preview-links/image?${query}`);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('url-expired');
  });

  it('checks the values when the link is made', async () => {
    const res = await server.api('/v1/preview-links', {
      method: 'POST',
      json: { templateId: TEMPLATE, values: { headline: 'No price' } },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(
      'values.price',
    );
  });

  it('stops working when its key is revoked', async () => {
    const created = await (
      await server.api('/v1/api-keys', { method: 'POST', json: { name: 'CMS', scope: 'render' } })
    ).json();
    const res = await testFetch(`${server.url}/v1/preview-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: TEMPLATE, values: { ...VALUES, headline: 'By CMS' } }),
    });
    const made = await res.json();
    expect((await testFetch(made.url)).status).toBe(200);
    await server.api(`/v1/api-keys/${created.id}`, { method: 'DELETE' });
    const after = await testFetch(made.url);
    expect(after.status).toBe(403);
    expect((await after.json()).detail).toMatch(/revoked/);
  });

  it('are all revoked by rotating the signing secret (admin only)', async () => {
    const made = await link({ ...VALUES, headline: 'Before rotation' });
    expect((await testFetch(made.url)).status).toBe(200);
    const rotated = await server.api('/v1/preview-links/rotate-secret', { method: 'POST' });
    expect(rotated.status).toBe(200);
    const res = await testFetch(made.url);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('url-invalid');
    expect((await testFetch((await link()).url)).status).toBe(200);
  });

  it('are in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    expect(doc.paths['/v1/preview-links'].post['x-required-scope']).toBe('render');
    expect(doc.paths['/v1/preview-links/image'].get.security).toEqual([]);
    expect(doc.paths['/v1/preview-links/rotate-secret'].post['x-required-scope']).toBe('admin');
  });
});
