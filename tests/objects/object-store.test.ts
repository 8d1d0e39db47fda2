import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderObjectStore } from '../../main/objects/folder-object-store.js';
import type { ObjectStore } from '../../main/objects/object-store.js';
import { S3ObjectStore } from '../../main/objects/s3-object-store.js';
import { collectGarbageQuickly } from '../helpers/collect-garbage.js';
import { sharedBucket } from '../helpers/services/shared-services.js';

const MiB = 1024 * 1024;

interface Implementation {
  name: string;
  open(): Promise<ObjectStore>;
  /**
   * Whether a put replaces the object whole or not at all: concurrent puts of different bytes
   * leave exactly one of them, and a failed upload leaves nothing. Real S3 and the folder store
   * do; s3rver writes into the object's file in place (see tests/helpers/services/s3-service.ts),
   * so against it only same-bytes races are checked, which is the race the cluster has (a
   * repeated job writes a row's deterministic output again).
   */
  wholeObjectWrites: boolean;
  /**
   * Whether listings follow S3's byte order of whole keys across folders ("bat_x-1.png" before
   * "bat_x/0.png"). s3rver lists folder by folder instead; within one folder its order is right.
   */
  byteOrderAcrossFolders: boolean;
  /** The folder behind a folder store, to look for leftovers. */
  folder?: string;
}

const folderRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-objects-'));
afterAll(() => fs.rmSync(folderRoot, { recursive: true, force: true }));

const implementations: Implementation[] = [
  {
    name: 'folder store',
    open: () => FolderObjectStore.open(folderRoot),
    wholeObjectWrites: true,
    byteOrderAcrossFolders: true,
    folder: folderRoot,
  },
  {
    name: 'S3 store (s3rver)',
    open: async () => {
      const s3 = await sharedBucket();
      return new S3ObjectStore({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: s3.region,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
    },
    wholeObjectWrites: false,
    byteOrderAcrossFolders: false,
  },
];

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under `dir`, relative, temporary ones included. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** Runs `tasks` with at most `width` at a time. */
async function inParallel(width: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}

// Freed chunks only go back once the collector runs: collecting every few ms measures what a
// store keeps, not what the collector has not yet reclaimed.

/**
 * Highest RSS above the level at the start while `work` runs, measured after collections. A
 * collection on a large heap takes tens of milliseconds: the next sample waits three times as
 * long as the last collection took, so sampling never takes more than a quarter of the time.
 */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  collectGarbageQuickly();
  const start = process.memoryUsage.rss();
  let peak = start;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const t0 = performance.now();
    collectGarbageQuickly();
    peak = Math.max(peak, process.memoryUsage.rss());
    return performance.now() - t0;
  };
  const next = (delay: number) => {
    timer = setTimeout(() => next(Math.max(20, 3 * sample())), delay);
  };
  next(20);
  try {
    await work();
  } finally {
    clearTimeout(timer);
  }
  sample();
  return peak - start;
}

describe.each(implementations)('object store contract: $name', (implementation) => {
  let store: ObjectStore;

  beforeAll(async () => {
    store = await implementation.open();
  }, 120_000);

  afterAll(async () => {
    await store?.close();
  });

  it('gives back the exact bytes it was given, and a second put of the key replaces them', async () => {
    const first = crypto.randomBytes(300_000);
    await store.put('roundtrip/batches/bat_1/12.png', first, { contentType: 'image/png' });
    expect((await store.get('roundtrip/batches/bat_1/12.png'))?.equals(first)).toBe(true);
    expect(await store.head('roundtrip/batches/bat_1/12.png')).toEqual({ size: 300_000 });

    const second = crypto.randomBytes(1_234);
    await store.put('roundtrip/batches/bat_1/12.png', second);
    expect((await store.get('roundtrip/batches/bat_1/12.png'))?.equals(second)).toBe(true);
    const streamed = await store.getStream('roundtrip/batches/bat_1/12.png');
    expect((await readAll(streamed!)).equals(second)).toBe(true);
    expect(await store.head('roundtrip/batches/bat_1/12.png')).toEqual({ size: 1_234 });

    await store.put('roundtrip/empty.txt', new Uint8Array(0));
    expect(await store.get('roundtrip/empty.txt')).toEqual(Buffer.alloc(0));
    expect(await store.head('roundtrip/empty.txt')).toEqual({ size: 0 });
  });

  it('answers null for a key that holds nothing, and deleting it is not an error', async () => {
    expect(await store.get('missing/nothing.png')).toBeNull();
    expect(await store.getStream('missing/nothing.png')).toBeNull();
    expect(await store.head('missing/nothing.png')).toBeNull();
    await expect(store.delete('missing/nothing.png')).resolves.toBeUndefined();
    expect(await store.deletePrefix('missing/')).toBe(0);
    expect(await store.list('missing/')).toEqual({ entries: [], next: null });

    await store.put('missing/folder/object.bin', Buffer.from('x'));
    // "missing/folder" is the folder of a key, not an object.
    expect(await store.get('missing/folder')).toBeNull();
    expect(await store.head('missing/folder')).toBeNull();
  });

  it('deletes one object and leaves its neighbours', async () => {
    await store.put('single/a.png', Buffer.from('a'));
    await store.put('single/b.png', Buffer.from('b'));
    await store.delete('single/a.png');
    expect(await store.get('single/a.png')).toBeNull();
    expect(await store.get('single/b.png')).toEqual(Buffer.from('b'));
  });

  it('streams a 50 MB object in and out with memory far below its size', async () => {
    const size = 50 * MiB;
    const local = path.join(folderRoot, '..', `${path.basename(folderRoot)}-big.bin`);
    const hash = crypto.createHash('sha256');
    await pipeline(
      Readable.from(
        (function* () {
          for (let i = 0; i < size / MiB; i++) {
            const chunk = crypto.randomBytes(MiB);
            hash.update(chunk);
            yield chunk;
          }
        })(),
      ),
      fs.createWriteStream(local),
    );
    const expected = hash.digest('hex');
    try {
      const growth = {
        putFile: await peakRssGrowth(() =>
          store.putFile('big/file.bin', local, { contentType: 'application/octet-stream' }),
        ),
        // Unknown length: the S3 store sends it in parts, one in memory at a time.
        putStream: await peakRssGrowth(() =>
          store.putStream('big/stream.bin', fs.createReadStream(local)),
        ),
        getStream: await peakRssGrowth(async () => {
          for (const key of ['big/file.bin', 'big/stream.bin']) {
            expect(await store.head(key)).toEqual({ size });
            const digest = crypto.createHash('sha256');
            for await (const chunk of (await store.getStream(key))!) {
              digest.update(chunk as Buffer);
            }
            expect(digest.digest('hex')).toBe(expected);
          }
        }),
      };
      // Streaming keeps a few chunks, or one 8 MiB part for the S3 store's multipart upload:
      // up to ~23 MiB measured with the allocator's slack. Holding the object costs 50 MiB at
      // least (a getStream that read the whole file first measured 100 MiB).
      const measured = `RSS growth in bytes: ${JSON.stringify(growth)}`;
      expect(growth.putFile, measured).toBeLessThan(30 * MiB);
      expect(growth.putStream, measured).toBeLessThan(30 * MiB);
      expect(growth.getStream, measured).toBeLessThan(30 * MiB);
    } finally {
      fs.rmSync(local, { force: true });
    }
  }, 180_000);

  it('fails a stream upload that ends short of its announced size instead of waiting for the rest', async () => {
    const short = Readable.from([Buffer.alloc(1000, 1)]);
    await expect(store.putStream('short/upload.bin', short, { size: 5000 })).rejects.toMatchObject({
      code: 'validation-failed',
      message: 'The upload of short/upload.bin ended after 1000 of 5000 bytes.',
    });
    if (implementation.wholeObjectWrites) expect(await store.head('short/upload.bin')).toBeNull();
  });

  it('lists a folder of 2,500 objects in pages, and deletes all of it and nothing beside it', async () => {
    const keys = Array.from({ length: 2_500 }, (_, i) => `gc/batches/bat_x/${i}.png`);
    await inParallel(
      16,
      keys.map((key) => () => store.put(key, Buffer.from(key))),
    );
    // Neighbours that share the start of the name but not the folder must survive.
    await store.put('gc/batches/bat_x0/keep.png', Buffer.from('keep'));
    await store.put('gc/batches/bat_x-1.png', Buffer.from('keep'));

    const listed: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await store.list('gc/batches/bat_x/', { ...(after ? { after } : {}) });
      listed.push(...page.entries.map((entry) => entry.key));
      expect(page.entries.every((entry) => entry.size === Buffer.byteLength(entry.key))).toBe(true);
      after = page.next ?? undefined;
      pages += 1;
    } while (after);
    expect(pages).toBe(3);
    expect(listed).toEqual([...keys].sort());

    const all = await store.list('gc/batches/bat_x', { after: 'gc/batches/bat_x/9999' });
    expect(all.entries.map((entry) => entry.key)).toEqual(['gc/batches/bat_x0/keep.png']);
    expect(await store.deletePrefix('gc/batches/bat_x/')).toBe(2_500);
    expect(await store.list('gc/batches/bat_x/')).toEqual({ entries: [], next: null });
    expect(await store.get('gc/batches/bat_x/7.png')).toBeNull();
    const left = (await store.list('gc/')).entries.map((entry) => entry.key);
    expect(left.sort()).toEqual(['gc/batches/bat_x-1.png', 'gc/batches/bat_x0/keep.png']);
  }, 300_000);

  it('gives the sizes of 1,100 keys of a folder at once, null for keys that hold nothing', async () => {
    const keys = Array.from({ length: 1_100 }, (_, i) => `sizes/batches/bat_s/${i}.png`);
    await inParallel(
      16,
      keys.map((key, i) => () => store.put(key, Buffer.alloc(i % 97))),
    );
    // A neighbour folder that shares the start of the name is not part of the answer.
    await store.put('sizes/batches/bat_s0/1.png', Buffer.alloc(5));
    const asked = [
      'sizes/batches/bat_s/1099.png',
      ...keys,
      'sizes/batches/bat_s/missing.png',
      'sizes/batches/bat_s/3.png',
    ];
    const expected = [1099 % 97, ...keys.map((_, i) => i % 97), null, 3];
    expect(await store.sizes('sizes/batches/bat_s/', asked)).toEqual(expected);
    expect(await store.sizes('sizes/batches/bat_s0/', ['sizes/batches/bat_s0/1.png'])).toEqual([5]);
    expect(await store.sizes('sizes/batches/bat_s/', [])).toEqual([]);
    await expect(
      store.sizes('sizes/batches/bat_s/', ['sizes/batches/bat_s0/1.png']),
    ).rejects.toMatchObject({ code: 'validation-failed' });
  }, 300_000);

  if (implementation.byteOrderAcrossFolders) {
    it('lists in the byte order of whole keys across folders, and resumes after any key', async () => {
      const keys = ['order/a-c.png', 'order/a/1.png', 'order/a/2.png', 'order/a/sub/x.png'];
      keys.push('order/a0.png', 'order/b.png');
      for (const key of [...keys].reverse()) await store.put(key, Buffer.from(key));
      const first = await store.list('order/', { limit: 2 });
      expect(first).toEqual({
        entries: keys.slice(0, 2).map((key) => ({ key, size: key.length })),
        next: 'order/a/1.png',
      });
      const rest = await store.list('order/', { after: 'order/a/1.png' });
      expect(rest.entries.map((entry) => entry.key)).toEqual(keys.slice(2));
      expect(rest.next).toBeNull();
      const inside = await store.list('order/a/', { after: 'order/a/10' });
      expect(inside.entries.map((entry) => entry.key)).toEqual([
        'order/a/2.png',
        'order/a/sub/x.png',
      ]);
      const started = await store.list('order/a');
      expect(started.entries.map((entry) => entry.key)).toEqual(keys.slice(0, 5));
    });
  }

  it('refuses keys that are empty, absolute, climb out, or use characters outside the set', async () => {
    const bad = [
      '',
      '/etc/passwd',
      '../outside.png',
      'a/../../outside.png',
      'a/./b.png',
      'a//b.png',
      'a/b/',
      '.hidden',
      'a\\b.png',
      'with space.png',
      'tab\t.png',
      'ünïcode.png',
      'x'.repeat(1_100),
    ];
    for (const key of bad) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toMatchObject({
        code: 'validation-failed',
      });
      await expect(store.get(key), key).rejects.toMatchObject({ code: 'validation-failed' });
      await expect(store.getStream(key), key).rejects.toMatchObject({ code: 'validation-failed' });
      await expect(store.head(key), key).rejects.toMatchObject({ code: 'validation-failed' });
      await expect(store.delete(key), key).rejects.toMatchObject({ code: 'validation-failed' });
    }
    for (const prefix of ['', '/', 'batches/bat_1', '../', 'a//']) {
      await expect(store.deletePrefix(prefix), prefix).rejects.toMatchObject({
        code: 'validation-failed',
      });
    }
    await expect(store.list('../')).rejects.toMatchObject({ code: 'validation-failed' });
    await expect(store.list('', { limit: 0 })).rejects.toMatchObject({
      code: 'validation-failed',
    });
  });

  it('leaves one complete object when puts of the same bytes to one key race', async () => {
    const bytes = crypto.randomBytes(2 * MiB);
    await Promise.all(Array.from({ length: 8 }, () => store.put('race/same.png', bytes)));
    expect((await store.get('race/same.png'))?.equals(bytes)).toBe(true);
  });

  if (implementation.wholeObjectWrites) {
    it('leaves exactly one whole object when puts of different bytes race, and readers never see a part', async () => {
      const bodies = Array.from({ length: 8 }, (_, i) => crypto.randomBytes(MiB + i * 4099));
      await store.put('race/different.bin', bodies[0]!);
      let writing = true;
      const seen: Buffer[] = [];
      const reader = (async () => {
        while (writing) {
          const got = await store.get('race/different.bin');
          if (got) seen.push(got);
        }
      })();
      for (let round = 0; round < 3; round++) {
        await Promise.all(bodies.map((body) => store.put('race/different.bin', body)));
      }
      writing = false;
      await reader;
      const final = await store.get('race/different.bin');
      expect(bodies.some((body) => body.equals(final!))).toBe(true);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((got) => bodies.some((body) => body.equals(got)))).toBe(true);
    });
  }

  if (implementation.folder) {
    const folder = implementation.folder;
    it('refuses a key that would also be the folder of another key, naming both', async () => {
      await store.put('clash/a.png', Buffer.from('a'));
      await expect(store.put('clash/a.png/b.png', Buffer.from('b'))).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('clash/a.png/b.png'),
      });
      await store.put('clash/dir/b.png', Buffer.from('b'));
      await expect(store.put('clash/dir', Buffer.from('c'))).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('other objects live under clash/dir/'),
      });
      expect(await store.get('clash/a.png')).toEqual(Buffer.from('a'));
      expect(await store.get('clash/dir/b.png')).toEqual(Buffer.from('b'));
    });

    it('leaves no temporary file behind, after puts and after a failed put', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(64 * 1024, 7));
          this.destroy(new Error('the source broke off'));
        },
      });
      await expect(store.putStream('temp/broken.bin', failing)).rejects.toThrow(
        'the source broke off',
      );
      expect(await store.head('temp/broken.bin')).toBeNull();
      await store.put('temp/whole.bin', Buffer.from('whole'));
      const leftovers = filesUnder(folder).filter((file) => path.basename(file).startsWith('.'));
      expect(leftovers).toEqual([]);
      expect(filesUnder(folder)).toContain(path.join('temp', 'whole.bin'));
    });
  }
});
