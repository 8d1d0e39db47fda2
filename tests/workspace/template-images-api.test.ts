import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedPng } from '../helpers/forged-png.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import { sha } from '../packs/pack-helpers.js';

let server: InjectServer;
let template: Json;
let pack: Buffer;

const EXTERNAL_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><image href="../../fonts/x.png" width="40" height="40"/></svg>',
);

beforeAll(async () => {
  server = await buildInjectServer();
  const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
    method: 'POST',
    json: { name: 'Images' },
  });
  template = await fork.json();
  pack = Buffer.from(await (await server.api(`/v1/templates/${template.id}/pack`)).arrayBuffer());
});
afterAll(() => server.stop());

function addImage(body: Buffer, type = 'image/png') {
  return server.api(`/v1/templates/${template.id}/assets`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
}

/** The exported pack with one asset's bytes replaced (and pack.json's sha256 and size kept true). */
function packWithAsset(bytes: Buffer): Buffer {
  const zip = new AdmZip(pack);
  const manifest = JSON.parse(zip.getEntry('pack.json')!.getData().toString('utf8'));
  const asset = manifest.assets[0];
  zip.updateFile(asset.path, bytes);
  Object.assign(asset, { sha256: sha(bytes), size: bytes.length });
  zip.updateFile('pack.json', Buffer.from(JSON.stringify(manifest)));
  return zip.toBuffer();
}

function importPack(bytes: Buffer) {
  return server.api('/v1/templates/import', {
    method: 'POST',
    headers: { 'content-type': 'application/zip' },
    body: bytes,
  });
}

describe('template images', () => {
  it('are PNG, JPEG or WebP by their bytes: an SVG sent as image/png is refused', async () => {
    const problem = await expectProblem(await addImage(EXTERNAL_SVG), 422, 'image-invalid');
    expect(problem.detail).toMatch(/not a PNG, JPEG or WebP image/);
  });

  it('are stored under the extension of what they are, whatever Content-Type says', async () => {
    const jpeg = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#f80' },
    })
      .jpeg()
      .toBuffer();
    const res = await addImage(jpeg, 'image/png');
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await res.json()).asset).toMatch(/\.jpg$/);
  });

  it('are refused over the pixel limit', async () => {
    const problem = await expectProblem(
      await addImage(forgedPng(30_000, 30_000)),
      422,
      'image-invalid',
    );
    expect(problem.detail).toMatch(/268-megapixel/);
  });
});

describe('template images inside an imported pack', () => {
  it('are checked like uploaded ones: an SVG or a pixel bomb makes the pack invalid', async () => {
    expect((await importPack(pack)).status).toBe(201);
    for (const [bytes, reason] of [
      [EXTERNAL_SVG, /not a PNG, JPEG or WebP image/],
      [forgedPng(30_000, 30_000), /268-megapixel/],
    ] as const) {
      const problem = await expectProblem(
        await importPack(packWithAsset(bytes)),
        422,
        'pack-invalid',
      );
      expect(problem.detail).toMatch(reason);
    }
  });
});
