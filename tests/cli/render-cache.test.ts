import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RenderCache } from '../../main/cli/render-cache.js';
import { tempDir } from '../helpers/run-cli.js';

describe('the command line render cache', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir('rd-render-cache-');
  });
  afterEach(() => temp.remove());

  async function filled(dir: string): Promise<{ cache: RenderCache; keys: string[] }> {
    const cache = new RenderCache(dir);
    const keys = ['aa01', 'bb02', 'cc03'].map((prefix) => prefix.padEnd(64, '0'));
    for (const [i, key] of keys.entries()) {
      const source = path.join(temp.dir, `out-${i}.png`);
      fs.writeFileSync(source, Buffer.alloc(4096, i + 1));
      await cache.put(key, 'png', source);
    }
    return { cache, keys };
  }

  it('finds the entries it wrote', async () => {
    const { cache, keys } = await filled(path.join(temp.dir, 'cache'));
    for (const key of keys) expect(cache.find(key, 'png')).toBe(cache.file(key, 'png'));
    expect(cache.find('dd04'.padEnd(64, '0'), 'png')).toBeNull();
  });

  it('hashes a restored copy in full: an altered entry is a miss even with its size and time kept', async () => {
    const original = path.join(temp.dir, 'cache');
    const { keys } = await filled(original);
    // A cache saved and restored (CI): new files, the same times to the nanosecond.
    const restored = path.join(temp.dir, 'restored');
    execFileSync('cp', ['-a', original, restored]);
    const cache = new RenderCache(restored);
    const altered = cache.file(keys[1]!, 'png');
    fs.chmodSync(altered, 0o644);
    const bytes = fs.readFileSync(altered);
    bytes[100] = bytes[100]! ^ 0xff;
    fs.writeFileSync(altered, bytes);
    execFileSync('touch', ['-r', path.join(original, path.relative(restored, altered)), altered]);

    expect(cache.find(keys[0]!, 'png')).toBe(cache.file(keys[0]!, 'png'));
    expect(cache.find(keys[1]!, 'png')).toBeNull();
    expect(cache.find(keys[2]!, 'png')).toBe(cache.file(keys[2]!, 'png'));
  });

  it('reads a digest written before entries recorded their file (no stamp) by hashing', async () => {
    const { cache, keys } = await filled(path.join(temp.dir, 'cache'));
    const sidecar = `${cache.file(keys[0]!, 'png')}.sha256`;
    const [digest, size] = fs.readFileSync(sidecar, 'utf8').trim().split(' ');
    fs.chmodSync(sidecar, 0o644);
    fs.writeFileSync(sidecar, `${digest} ${size}\n`);
    expect(cache.find(keys[0]!, 'png')).toBe(cache.file(keys[0]!, 'png'));
  });

  it('passes over a FIFO put in place of an entry or its digest without waiting on it', async () => {
    const { cache, keys } = await filled(path.join(temp.dir, 'cache'));
    const entry = cache.file(keys[0]!, 'png');
    fs.rmSync(entry);
    execFileSync('mkfifo', [entry]);
    const sidecar = `${cache.file(keys[1]!, 'png')}.sha256`;
    fs.rmSync(sidecar);
    execFileSync('mkfifo', [sidecar]);
    // Each would block an open for reading until a writer came; this test would time out.
    expect(cache.find(keys[0]!, 'png')).toBeNull();
    expect(cache.find(keys[1]!, 'png')).toBeNull();
    expect(cache.find(keys[2]!, 'png')).toBe(cache.file(keys[2]!, 'png'));
  }, 10_000);
});
