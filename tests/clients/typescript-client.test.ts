import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderDeskClient } from '../../clients/typescript/src/index.js';
import { CLIENT_SCHEMA_PATH, generatedSchema } from '../../scripts/generate-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('the generated TypeScript client', () => {
  it('is generated from the current OpenAPI document (run npm run client:generate if not)', async () => {
    const committed = fs.readFileSync(CLIENT_SCHEMA_PATH, 'utf8');
    expect(
      committed === (await generatedSchema()),
      'clients/typescript/src/schema.ts is stale: run npm run client:generate',
    ).toBe(true);
  }, 60_000);

  describe('against a real server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('renders an image', async () => {
      const client = createRenderDeskClient({ baseUrl: server.url, apiKey: server.key });
      const { data, error, response } = await client.POST('/v1/render', {
        body: {
          templateId: 'tmpl_product_promo',
          target: 'og',
          values: { headline: 'From the typed client', price: 24.5, photo: 'asset:product.jpg' },
        },
        parseAs: 'arrayBuffer',
      });
      expect(error).toBeUndefined();
      expect(response.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(data!)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    });

    it('reads typed JSON and problem answers', async () => {
      const client = createRenderDeskClient({ baseUrl: server.url, apiKey: server.key });
      const account = await client.GET('/v1/account');
      expect(typeof account.data?.balance).toBe('number');
      const template = await client.GET('/v1/catalog/{id}', {
        params: { path: { id: 'tmpl_product_promo' } },
      });
      expect(template.data?.id).toBe('tmpl_product_promo');
      const missing = await client.POST('/v1/render', {
        body: { templateId: 'tmpl_product_promo', values: {} },
      });
      expect(missing.response.status).toBe(422);
      expect(missing.error?.code).toBe('validation-failed');
    });
  });
});
