import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
import { openPostgres } from '../../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { ImageUrlCache } from '../../main/remote-images/image-url-cache.js';
import { ImageUrlFailure } from '../../main/remote-images/image-url-failure.js';
import {
  IMAGE_URL_SETTINGS_KEY,
  imageUrlSettingsSource,
} from '../../main/remote-images/image-url-settings.js';
import { RemoteImages } from '../../main/remote-images/remote-images.js';
import { imageRoute, solidPng, startImageHost, type ImageHost } from '../helpers/image-host.js';
import { sharedPostgresDatabase } from '../helpers/services/shared-services.js';

/**
 * In a cluster, batch rows' image URLs are fetched on the worker: the setting an API node saves
 * (in PostgreSQL, as PUT /v1/system/image-urls does) is what a worker's RemoteImages reads, as
 * start-cluster-node wires it.
 */
let data: CoreData;
let host: ImageHost;
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-worker-url-cache-'));

beforeAll(async () => {
  const postgres = await sharedPostgresDatabase({ migrated: true });
  const pg = openPostgres(postgres.url);
  data = postgresCoreData(pg);
  host = await startImageHost({ '/photo.png': imageRoute(await solidPng()) });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await data?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe('the image URL setting in a cluster', () => {
  it('reaches a worker through PostgreSQL, within the settings cache time', async () => {
    const worker = new RemoteImages({
      cache: new ImageUrlCache(cacheDir),
      settings: imageUrlSettingsSource(data.settings, { ttlMs: 100 }).read,
    });
    const url = `${host.origin}/photo.png`;
    // Off: nothing is fetched (the resolver then answers url-not-allowed).
    expect((await worker.fetchAll([url])).size).toBe(0);

    await data.settings.set(
      IMAGE_URL_SETTINGS_KEY,
      JSON.stringify({ enabled: true, allowedHosts: [] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    // On: fetched under the rules, so this loopback host is refused (a worker has no seam).
    const found = (await worker.fetchAll([url])).get(url);
    expect(found).toBeInstanceOf(ImageUrlFailure);
    expect((found as ImageUrlFailure).code).toBe('image-url-refused');
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  });
});
