/**
 * `npm run bench:integrations`: issue 17's integration figures, every one measured in this run,
 * with the load average beside it (the machine may be shared).
 *
 *   1. Image URLs: a batch whose rows name their photo by http URL (20 distinct images on a
 *      loopback host, the disk cache warm) against the same batch with local file paths; the
 *      difference per row is the overhead. Measured with the host's copies fresh (max-age: no
 *      request per row) and stale (no-cache: a conditional request and a 304 per image use).
 *   2. Preview links: the first fetch of a link (renders and charges) against later fetches of
 *      the same link (read from the stored image), median of several links.
 *
 * The image host is this process's own loopback server; the fetcher's test-only seam
 * (testOnlyTrustedOrigins) lets it stand in for an internet host, as in tests/remote-images.
 *
 *   BENCH_ROWS=100 npm run bench:integrations   a smaller batch, for a smoke run
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startCore } from '../main/app.js';
import { ImageUrlCache } from '../main/remote-images/image-url-cache.js';
import { ImageUrlFetcher } from '../main/remote-images/image-url-fetcher.js';
import { RemoteImages } from '../main/remote-images/remote-images.js';
import { imageRoute, startImageHost } from '../tests/helpers/image-host.js';
import { fmt, median } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const IMAGES = 20;
const LINKS = Number(process.env.BENCH_LINKS ?? 8);
const KEY = 'rdk_integrations_bench_0123456789';
const TEMPLATE = 'tmpl_product_promo';

function load(): string {
  return os
    .loadavg()
    .map((n) => fmt(n, 2))
    .join(' ');
}

async function photo(i: number): Promise<Buffer> {
  // Photo-sized JPEGs (1200 × 900), each a different colour, so no two decode alike.
  return sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-bench-integrations-'));
  const photos = await Promise.all(Array.from({ length: IMAGES }, (_, i) => photo(i)));
  const files = photos.map((bytes, i) => {
    const file = path.join(work, 'photos', `photo-${i}.jpg`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    return file;
  });
  const routes: Parameters<typeof startImageHost>[0] = {};
  photos.forEach((bytes, i) => {
    routes[`/fresh/${i}.jpg`] = imageRoute(bytes, 'image/jpeg', `"f${i}"`, 'max-age=3600');
    routes[`/stale/${i}.jpg`] = imageRoute(bytes, 'image/jpeg', `"s${i}"`, 'no-cache');
  });
  const host = await startImageHost(routes);
  const core = await startCore(
    {
      port: 0,
      dataDir: path.join(work, 'data'),
      apiKey: KEY,
      openingCredits: 100_000,
      rateLimit: 100_000,
      workers: 2,
      subscription: undefined,
    },
    { imageUrlFetcher: new ImageUrlFetcher({ testOnlyTrustedOrigins: [host.origin] }) },
  );
  const api = async (pathname: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(core.url + pathname, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    if (res.status >= 400) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
    return res;
  };
  const batchSeconds = async (photoOf: (row: number) => string, rows = ROWS): Promise<number> => {
    const records = Array.from({ length: rows }, (_, row) => ({
      headline: `Row ${row}`,
      price: 10 + (row % 50),
      photo: photoOf(row),
    }));
    const started = performance.now();
    const { id } = (await (
      await api('/v1/render-batches', {
        method: 'POST',
        json: { templateId: TEMPLATE, sourceType: 'json-array', source: { records } },
      })
    ).json()) as { id: string };
    for (;;) {
      const batch = (await (await api(`/v1/render-batches/${id}`)).json()) as {
        status: string;
        succeeded: number;
      };
      if (!['queued', 'running'].includes(batch.status)) {
        if (batch.succeeded !== rows) throw new Error(`batch ${id}: ${batch.status}`);
        return (performance.now() - started) / 1000;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  try {
    await api('/v1/system/image-urls', {
      method: 'PUT',
      json: { enabled: true, allowedHosts: [] },
    });
    console.log(`load average before: ${load()}`);
    // Warm-up: threads, fonts, the template, and the URL cache of both sets.
    await batchSeconds((row) => files[row % IMAGES]!, IMAGES);
    await batchSeconds((row) => `${host.origin}/fresh/${row % IMAGES}.jpg`, IMAGES);
    await batchSeconds((row) => `${host.origin}/stale/${row % IMAGES}.jpg`, IMAGES);
    console.log('warmed up');

    const local: number[] = [];
    const fresh: number[] = [];
    const stale: number[] = [];
    const hitsBefore = [...host.hits.values()].reduce((a, b) => a + b, 0);
    for (let round = 0; round < ROUNDS; round++) {
      local.push(await batchSeconds((row) => files[row % IMAGES]!));
      fresh.push(await batchSeconds((row) => `${host.origin}/fresh/${row % IMAGES}.jpg`));
      stale.push(await batchSeconds((row) => `${host.origin}/stale/${row % IMAGES}.jpg`));
    }
    const hits = [...host.hits.values()].reduce((a, b) => a + b, 0) - hitsBefore;
    const perRow = (seconds: number[]) => (median(seconds) / ROWS) * 1000;
    console.log(`\nImage URLs: ${ROWS} rows, ${IMAGES} distinct 1200×900 JPEGs, 2 render threads`);
    console.log(
      `  local files            ${fmt(median(local), 2)} s  ${fmt(perRow(local), 2)} ms/row`,
    );
    console.log(
      `  URLs, cache fresh      ${fmt(median(fresh), 2)} s  ${fmt(perRow(fresh), 2)} ms/row  overhead ${fmt(perRow(fresh) - perRow(local), 2)} ms/row`,
    );
    console.log(
      `  URLs, revalidated (304) ${fmt(median(stale), 2)} s  ${fmt(perRow(stale), 2)} ms/row  overhead ${fmt(perRow(stale) - perRow(local), 2)} ms/row`,
    );
    console.log(`  requests to the image host in the measured runs: ${hits}`);

    // The same overhead without the render threads' noise: what a row's image URL costs the API
    // thread before its job is handed over (a local file costs a stat there, not measured here).
    const remote = new RemoteImages({
      cache: new ImageUrlCache(path.join(work, 'url-cache')),
      settings: async () => ({ enabled: true, allowedHosts: [] }),
      fetcher: new ImageUrlFetcher({ testOnlyTrustedOrigins: [host.origin] }),
    });
    const perUse = async (kind: 'fresh' | 'stale'): Promise<number> => {
      for (let i = 0; i < IMAGES; i++) await remote.fetchAll([`${host.origin}/${kind}/${i}.jpg`]);
      const uses = 400;
      const started = performance.now();
      for (let i = 0; i < uses; i++)
        await remote.fetchAll([`${host.origin}/${kind}/${i % IMAGES}.jpg`]);
      return ((performance.now() - started) / uses) * 1000;
    };
    console.log(
      `  per image use on the API thread, warm cache: fresh ${fmt(await perUse('fresh'), 0)} µs, revalidated (304) ${fmt(await perUse('stale'), 0)} µs`,
    );

    // Preview links: cold (render + charge) against cached (the stored image).
    const cold: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < LINKS; i++) {
      const { url } = (await (
        await api('/v1/preview-links', {
          method: 'POST',
          json: {
            templateId: TEMPLATE,
            target: 'og',
            values: {
              headline: `Preview ${i} ${Date.now()}`,
              price: 24.5,
              photo: files[i % IMAGES],
            },
          },
        })
      ).json()) as { url: string };
      let started = performance.now();
      const first = await fetch(url);
      await first.arrayBuffer();
      cold.push(performance.now() - started);
      for (let j = 0; j < 5; j++) {
        started = performance.now();
        const again = await fetch(url);
        await again.arrayBuffer();
        cached.push(performance.now() - started);
      }
    }
    console.log(`\nPreview links (og, 1200×630 PNG), ${LINKS} links`);
    console.log(`  first fetch (renders)  median ${fmt(median(cold), 1)} ms`);
    console.log(`  later fetches (stored) median ${fmt(median(cached), 1)} ms`);
    console.log(`\nload average after: ${load()}`);
  } finally {
    await core.close();
    await host.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
