import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadSourceImage } from '../../main/engine/load-image.js';
import { SourceImageCache } from '../../main/engine/source-image-cache.js';

/** The per-PDF cache of decoded source images keeps its pixels under its bound. */
describe('source image cache', () => {
  it('returns the same decode for a key, and drops the least recently used past its bound', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'source-cache-'));
    try {
      const files = await Promise.all(
        [0, 1, 2].map(async (i) => {
          const file = path.join(dir, `${i}.png`);
          await sharp({ create: { width: 100, height: 100, channels: 3, background: '#123456' } })
            .png()
            .toFile(file);
          return file;
        }),
      );
      // Room for two 100 × 100 images (40,000 bytes each), not three.
      const cache = new SourceImageCache(90_000);
      const load = async (i: number) => {
        const key = `f:${files[i]}`;
        let image = cache.get(key);
        if (!image) {
          image = loadSourceImage({ kind: 'file', path: files[i]! });
          cache.set(key, image);
        }
        return image;
      };
      const first = await load(0);
      expect(await load(0)).toBe(first);
      await load(1);
      expect(cache.size).toBe(80_000);
      await load(0); // 0 is now the most recently used
      await load(2);
      await Promise.resolve();
      expect(cache.size).toBe(80_000);
      expect(cache.get(`f:${files[1]}`)).toBeUndefined();
      expect(await cache.get(`f:${files[0]}`)).toBe(first);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
