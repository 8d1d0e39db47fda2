import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { imageRoute, solidPng, startImageHost, type ImageHost } from '../helpers/image-host.js';
import { runCli } from '../helpers/run-cli.js';
import type { ApiClient, Json } from '../helpers/test-server.js';
import {
  QUOTES,
  batchThroughApi,
  bundleOf,
  cliBatch,
  describeZip,
  expectSameBundles,
  quoteRows,
  throughApi,
  useParityModes,
  type ParityCase,
} from './parity-harness.js';

/**
 * What a batch draws with besides its rows — an uploaded font, a workspace template with an image
 * of its own, a zip of photos named by file, image URLs — gives the same bundle from the API of an
 * embedded server, `render-desk batch` on a data folder and a cluster of one API node and two
 * workers on PostgreSQL, Redis and S3.
 */

const modes = useParityModes();

/** Montserrat renamed: draws unlike every bundled face, so a row drawn without it differs. */
const FONT = testFont(MONTSERRAT, 'Parity Display');

async function json(response: Promise<Response> | Response, status: number): Promise<Json> {
  const res = await response;
  const body: Json = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

/**
 * A workspace template made through the API as a designer makes one: a font uploaded, the quote
 * card forked, an image added to the fork and the quote set in the uploaded font. Its id.
 */
async function designedTemplate(
  client: ApiClient,
  photo: Buffer,
): Promise<{ id: string; asset: string }> {
  await client.api('/v1/fonts', {
    method: 'POST',
    headers: { 'content-type': 'font/ttf' },
    body: FONT,
  });
  const forked = await json(
    client.api(`/v1/catalog/${QUOTES}/fork`, { method: 'POST', json: { name: 'Parity quote' } }),
    201,
  );
  const { asset } = await json(
    client.api(`/v1/templates/${forked.id}/assets`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: photo,
    }),
    201,
  );
  const layouts = structuredClone(forked.template.layouts);
  const body = layouts.square.layers.find((layer: Json) => layer.id === 'body');
  body.layers.find((layer: Json) => layer.id === 'quote').font.family = 'Parity Display';
  await json(
    client.api(`/v1/templates/${forked.id}`, {
      method: 'PATCH',
      json: { layouts, baseVersion: forked.version },
    }),
    200,
  );
  return { id: forked.id as string, asset: asset as string };
}

describe('what a batch draws with gives the same bundle in every mode', () => {
  it('a workspace template in an uploaded font, with an image of its own (a pack on the command line)', async () => {
    const photo = await solidPng('#a0522d');
    const [embedded, cluster] = await Promise.all([
      designedTemplate(modes.embedded, photo),
      designedTemplate(modes.cluster, photo),
    ]);
    const embeddedId = embedded.id;
    const { asset } = embedded;
    // The asset's name comes from its bytes: the same in every mode.
    expect(cluster.asset).toBe(asset);
    const rows = quoteRows(3, 'Workspace').map((row) => ({
      ...row,
      authorPhoto: `asset:${asset}`,
    }));

    // The command line's data folder gets the template as a pack: the app's export, imported.
    const dir = modes.caseDir('workspace-');
    const pack = path.join(dir, 'parity-quote.zip');
    const exported = await modes.embedded.api(`/v1/templates/${embeddedId}/pack`);
    expect(exported.status).toBe(200);
    fs.writeFileSync(pack, Buffer.from(await exported.arrayBuffer()));
    const imported = await runCli([
      'templates',
      'import',
      pack,
      '--data-dir',
      path.join(dir, 'data'),
      '--json',
    ]);
    expect(imported.code, imported.stderr + imported.stdout).toBe(0);
    const cliId = (JSON.parse(imported.stdout) as { id: string }).id;

    const test = (templateId: string): ParityCase => ({
      name: 'workspace template',
      templateId,
      rows,
      source: 'csv',
    });
    const [fromEmbedded, fromCluster, cli] = await Promise.all([
      throughApi(modes.embedded, test(embeddedId)),
      throughApi(modes.cluster, test(cluster.id)),
      cliBatch(dir, test(cliId)),
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expectSameBundles(fromEmbedded, fs.readFileSync(cli.out), fromCluster);

    // The font and the image are drawn: the built-in template gives other images.
    const plain = await throughApi(modes.embedded, {
      ...test(QUOTES),
      rows: quoteRows(3, 'Workspace'),
    });
    const images = (bytes: Buffer) =>
      new AdmZip(bytes)
        .getEntries()
        .filter((entry) => entry.entryName.endsWith('.png'))
        .map((entry) => entry.getData());
    const designed = images(fromEmbedded);
    expect(designed).toHaveLength(3);
    images(plain).forEach((image, i) => expect(image.equals(designed[i]!), `row ${i}`).toBe(false));
  }, 300_000);

  it('photos named by file: a zip uploaded as imagesRef, or the folder given with --images', async () => {
    const colours = ['#884422', '#228844', '#224488'];
    const photos = await Promise.all(
      colours.map((background) =>
        sharp({ create: { width: 60, height: 40, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const rows = quoteRows(3, 'Photo').map((row, i) => ({
      ...row,
      authorPhoto: `photos/author-${i + 1}.png`,
    }));
    const zip = new AdmZip();
    photos.forEach((bytes, i) => zip.addFile(`photos/author-${i + 1}.png`, bytes));
    const viaApi = async (client: ApiClient) => {
      const uploaded = await json(
        client.api('/v1/uploads?filename=photos.zip', {
          method: 'POST',
          headers: { 'content-type': 'application/zip' },
          body: zip.toBuffer(),
        }),
        201,
      );
      expect(uploaded.kind).toBe('zip');
      return throughApi(client, {
        name: 'imagesRef',
        templateId: QUOTES,
        rows,
        source: 'json',
        options: { imagesRef: uploaded.id },
      });
    };
    const dir = modes.caseDir('images-');
    const images = path.join(dir, 'images');
    photos.forEach((bytes, i) => {
      fs.mkdirSync(path.join(images, 'photos'), { recursive: true });
      fs.writeFileSync(path.join(images, 'photos', `author-${i + 1}.png`), bytes);
    });
    const [fromEmbedded, fromCluster, cli] = await Promise.all([
      viaApi(modes.embedded),
      viaApi(modes.cluster),
      cliBatch(
        dir,
        { name: 'images', templateId: QUOTES, rows, source: 'json' },
        { args: ['--images', images] },
      ),
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expectSameBundles(fromEmbedded, fs.readFileSync(cli.out), fromCluster);
  }, 300_000);
});

describe('image URLs in rows follow the same rules in every mode', () => {
  let host: ImageHost;
  beforeAll(async () => {
    host = await startImageHost({ '/photo.png': imageRoute(await solidPng()) });
  });
  afterAll(() => host?.close());

  /** Two rows with a URL among rows without: the bundle of the others and the manifest. */
  const urlRows = () =>
    quoteRows(4, 'URL').map((row, i) =>
      i % 2 === 1 ? { ...row, authorPhoto: `${host.origin}/photo.png` } : row,
    );

  async function everyMode(test: ParityCase, cliArgs: string[]) {
    const viaApi = async (client: ApiClient) => {
      const done = await batchThroughApi(client, test);
      expect(done.status, JSON.stringify(done)).toBe('partial');
      expect(done).toMatchObject({ succeeded: 2, failed: 2 });
      return bundleOf(client, done.id);
    };
    const [fromEmbedded, fromCluster, cli] = await Promise.all([
      viaApi(modes.embedded),
      viaApi(modes.cluster),
      cliBatch(modes.caseDir('urls-'), test, { args: cliArgs }),
    ]);
    // Failed rows: exit 1, the bundle written all the same.
    expect(cli.code, cli.stderr).toBe(1);
    expectSameBundles(fromEmbedded, fs.readFileSync(cli.out), fromCluster);
    return describeZip(fromEmbedded);
  }

  it('with image URLs off, a URL row fails with url-not-allowed saying how to turn them on', async () => {
    const manifest = await everyMode(
      { name: 'urls off', templateId: QUOTES, rows: urlRows(), source: 'json' },
      [],
    );
    expect(manifest).toMatch(/^1,failed,,.*image URLs are off/m);
    expect(manifest).toMatch(/^3,failed,,.*image URLs are off/m);
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  }, 300_000);

  it('with image URLs on, a URL to a loopback address is refused in every mode, never fetched', async () => {
    const on = { enabled: true, allowedHosts: [] };
    for (const client of [modes.embedded, modes.cluster])
      await json(client.api('/v1/system/image-urls', { method: 'PUT', json: on }), 200);
    // The workers re-read the setting from PostgreSQL every 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const manifest = await everyMode(
      { name: 'urls on', templateId: QUOTES, rows: urlRows(), source: 'json' },
      ['--allow-image-urls'],
    );
    expect(manifest).toMatch(/^1,failed,,.*127\.0\.0\.1, a loopback address/m);
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  }, 300_000);
});
