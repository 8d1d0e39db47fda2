import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../main/objects/object-store.js';
import { listedSizes } from '../../main/objects/object-sizes.js';
import { S3ObjectStore } from '../../main/objects/s3-object-store.js';
import { sharedBucket } from '../helpers/services/shared-services.js';

describe('sizes from listings (S3 store, s3rver)', () => {
  let store: S3ObjectStore;
  /** The same store, counting the requests sizing makes. */
  let counted: Pick<ObjectStore, 'list' | 'head'> & { lists: number; heads: number };
  const keys = Array.from({ length: 60 }, (_, i) => `batches/bat_l/${i}.png`);

  beforeAll(async () => {
    const s3 = await sharedBucket();
    store = new S3ObjectStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    for (const [i, key] of keys.entries()) await store.put(key, Buffer.alloc(i + 1));
    counted = {
      lists: 0,
      heads: 0,
      list(prefix, options) {
        counted.lists += 1;
        return store.list(prefix, options);
      },
      head(key) {
        counted.heads += 1;
        return store.head(key);
      },
    };
  }, 120_000);

  afterAll(async () => {
    await store?.close();
  });

  it('sizes a whole folder with one listing per page and no HEAD', async () => {
    counted.lists = counted.heads = 0;
    const sizes = await listedSizes(counted, 'batches/bat_l/', keys, 25);
    expect(sizes).toEqual(keys.map((_, i) => i + 1));
    expect(counted).toMatchObject({ lists: 3, heads: 0 });
  });

  it('asks for a missing key by HEAD before calling it missing', async () => {
    counted.lists = counted.heads = 0;
    const sizes = await listedSizes(counted, 'batches/bat_l/', ['batches/bat_l/x.png'], 25);
    expect(sizes).toEqual([null]);
    expect(counted).toMatchObject({ lists: 3, heads: 1 });
  });

  it('reads only a few pages for a few keys of a big folder, and HEADs the keys not yet seen', async () => {
    counted.lists = counted.heads = 0;
    // In byte order "9.png" is the folder's last key: three pages of 10 do not reach it.
    const few = ['batches/bat_l/0.png', 'batches/bat_l/9.png'];
    expect(await listedSizes(counted, 'batches/bat_l/', few, 10)).toEqual([1, 10]);
    expect(counted).toMatchObject({ lists: 3, heads: 1 });
  });
});
