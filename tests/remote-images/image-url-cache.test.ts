import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImageUrlCache } from '../../main/remote-images/image-url-cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function cacheOf(maxBytes: number): ImageUrlCache {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-url-cache-'));
  dirs.push(dir);
  return new ImageUrlCache(dir, maxBytes);
}

const meta = (url: string, bytes: number) => ({
  url,
  contentType: 'image/png',
  bytes,
  etag: `"${url}"`,
  validatedAt: Date.now(),
  freshForMs: 60_000,
});

describe('the image URL disk cache', () => {
  it('keeps an image with its validators, found again by another cache on the same folder', () => {
    const cache = cacheOf(10_000);
    cache.put(Buffer.alloc(100, 1), meta('https://a.example/x.png', 100));
    const again = new ImageUrlCache(cache.dir, 10_000).get('https://a.example/x.png');
    expect(again?.meta.etag).toBe('"https://a.example/x.png"');
    expect(fs.readFileSync(again!.file).length).toBe(100);
    expect(cache.get('https://a.example/other.png')).toBeNull();
  });

  it('stays within its size, the least recently used image going first', () => {
    const cache = cacheOf(1000);
    cache.put(Buffer.alloc(400), meta('https://a.example/1.png', 400));
    cache.put(Buffer.alloc(400), meta('https://a.example/2.png', 400));
    expect(cache.get('https://a.example/1.png')).not.toBeNull(); // 1 is now the more recent
    cache.put(Buffer.alloc(400), meta('https://a.example/3.png', 400));
    expect(cache.get('https://a.example/2.png')).toBeNull();
    expect(cache.get('https://a.example/1.png')).not.toBeNull();
    expect(cache.get('https://a.example/3.png')).not.toBeNull();
    const bytes = fs
      .readdirSync(cache.dir)
      .filter((name) => name.endsWith('.img'))
      .reduce((sum, name) => sum + fs.statSync(path.join(cache.dir, name)).size, 0);
    expect(bytes).toBeLessThanOrEqual(1000);
  });

  it('renews an image the server confirmed (304)', () => {
    const cache = cacheOf(10_000);
    cache.put(Buffer.alloc(10), { ...meta('https://a.example/x.png', 10), validatedAt: 0 });
    const renewed = cache.revalidated('https://a.example/x.png', 5000);
    expect(renewed?.meta.freshForMs).toBe(5000);
    expect(Date.now() - renewed!.meta.validatedAt).toBeLessThan(1000);
  });
});
