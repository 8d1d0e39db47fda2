import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageLoadError, loadFittedImage } from '../../main/engine/load-image.js';
import { ImageUrlFetcher } from '../../main/remote-images/image-url-fetcher.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { imageRoute, startImageHost, type ImageHost } from '../helpers/image-host.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { pngSuiteDir } from './fixtures/template-builder.js';

const TEMPLATE = 'tmpl_product_promo';

/**
 * Images of types Render Desk does not take, each as bytes sharp itself can decode (libtiff,
 * libheif), so that a pass would mean the decoder was reached. HEIF is AVIF's container with a
 * HEIF brand: the prebuilt sharp has no HEVC encoder to make a real one.
 */
let foreign: { name: string; type: RegExp; bytes: Buffer }[];
let dir: string;
let host: ImageHost;
let server: TestServer;

beforeAll(async () => {
  const png = fs.readFileSync(path.join(pngSuiteDir, 'basn2c08.png'));
  const avif = await sharp(png).avif().toBuffer();
  const heif = Buffer.from(avif);
  heif.write('heic', 8, 'latin1'); // the ftyp box's major brand
  foreign = [
    { name: 'tiff', type: /TIFF/, bytes: await sharp(png).tiff().toBuffer() },
    { name: 'avif', type: /AVIF/, bytes: avif },
    { name: 'heif', type: /HEIF/, bytes: heif },
  ];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-type-'));
  const routes: Parameters<typeof startImageHost>[0] = {
    // Gzip bytes sent as they are (no Content-Encoding): sharp would hand them to librsvg.
    '/gzip-png.png': imageRoute(zlib.gzipSync(png)),
  };
  for (const { name, bytes } of foreign) {
    routes[`/${name}.png`] = imageRoute(bytes);
    fs.writeFileSync(path.join(dir, `${name}.png`), bytes);
  }
  host = await startImageHost(routes);
  server = await startTestServer(
    {},
    { imageUrlFetcher: new ImageUrlFetcher({ testOnlyTrustedOrigins: [host.origin] }) },
  );
  await server.api('/v1/system/image-urls', {
    method: 'PUT',
    json: { enabled: true, allowedHosts: [] },
  });
});
afterAll(async () => {
  await server?.stop();
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const render = (photo: string) =>
  server.api('/v1/render', {
    method: 'POST',
    json: { templateId: TEMPLATE, values: { headline: 'Serum', price: 24.5, photo } },
  });

describe('image types are decided by the bytes, wherever an image comes in', () => {
  it('refuses TIFF, AVIF and HEIF bytes labelled image/png as data: URIs, naming the type', async () => {
    for (const { name, type, bytes } of foreign) {
      const res = await render(`data:image/png;base64,${bytes.toString('base64')}`);
      const problem = await expectProblem(res, 422, 'image-invalid');
      expect(problem.detail, name).toMatch(type);
      expect(problem.detail, name).toMatch(/PNG, JPEG, WebP, GIF or SVG/);
      expect(problem.errors?.[0]?.path, name).toBe('values.photo');
    }
  });

  it('refuses them as files named .png and as a brand logo', async () => {
    for (const { name, type, bytes } of foreign) {
      const file = await expectProblem(
        await render(path.join(dir, `${name}.png`)),
        422,
        'image-invalid',
      );
      expect(file.detail, name).toMatch(type);
      const logo = await server.api('/v1/brand-profile', {
        method: 'PUT',
        json: { logo: `data:image/png;base64,${bytes.toString('base64')}` },
      });
      expect((await expectProblem(logo, 422, 'image-invalid')).detail, name).toMatch(type);
    }
  });

  it('refuses them from an image URL answering image/png, and gzip bytes that are no SVG', async () => {
    for (const { name, type } of foreign) {
      const res = await render(`${host.origin}/${name}.png`);
      const problem = await expectProblem(res, 422, 'image-url-not-an-image');
      expect(problem.detail, name).toMatch(type);
    }
    const gzip = await expectProblem(
      await render(`${host.origin}/gzip-png.png`),
      422,
      'image-url-not-an-image',
    );
    expect(gzip.detail).toMatch(/gzip/);
  });

  it('refuses them as uploads sent as image/png', async () => {
    for (const { bytes } of foreign) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
      const res = await server.api('/v1/uploads', { method: 'POST', body: form });
      await expectProblem(res, 415, 'unsupported-media-type');
    }
  });

  it('refuses them in the render thread before decoding, for images no check saw (template files)', async () => {
    const fitting = {
      width: 40,
      height: 40,
      fit: 'cover',
      focalPoint: { x: 0.5, y: 0.5 },
    } as const;
    for (const { name, type, bytes } of foreign) {
      for (const input of [
        { kind: 'bytes', bytes: new Uint8Array(bytes), mime: 'image/png' } as const,
        { kind: 'file', path: path.join(dir, `${name}.png`) } as const,
      ]) {
        const error = await loadFittedImage(input, fitting).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, `${name} ${input.kind}`).toBeInstanceOf(ImageLoadError);
        expect((error as Error).message).toMatch(type);
      }
    }
  });

  it('still draws PNG, JPEG, WebP, GIF and SVG, whatever their data: URI says', async () => {
    const png = fs.readFileSync(path.join(pngSuiteDir, 'basn2c08.png'));
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    for (const bytes of [
      png,
      await sharp(png).jpeg().toBuffer(),
      await sharp(png).webp().toBuffer(),
      await sharp(png).gif().toBuffer(),
      svg,
    ]) {
      const res = await render(`data:image/png;base64,${bytes.toString('base64')}`);
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
});
