import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { openFiles } from '../helpers/open-files.js';
import {
  createBundleStream,
  plannedSizes,
  type BundleEntry,
} from '../../main/batch/bundle-writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function outputs(count: number, bytes: number): (BundleEntry & { file: string })[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-bundle-writer-'));
  dirs.push(dir);
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `${i}.png`);
    fs.writeFileSync(file, Buffer.alloc(bytes, i));
    return { name: `${i}.png`, file, size: bytes };
  });
}

describe('the bundle stream', () => {
  it.runIf(process.platform === 'linux')(
    'closes the file it was reading when its reader goes away mid-download',
    async () => {
      const entries = outputs(4, 4 * 1024 * 1024);
      const stream = createBundleStream(entries);
      await new Promise<void>((resolve) => stream.once('data', () => resolve()));
      stream.pause();
      // The first entry's header comes out as its file is being opened.
      await expect.poll(openFiles).toContain(entries[0]!.file);
      stream.destroy();
      await expect
        .poll(() => openFiles().filter((file) => entries.some((e) => e.file === file)))
        .toEqual([]);
    },
  );

  it('ends with an error naming the entry, and calls onError once, when a file is gone', async () => {
    const entries = outputs(3, 1024);
    fs.rmSync(entries[1]!.file);
    const errors: Error[] = [];
    const stream = createBundleStream(entries, [], { onError: (error) => errors.push(error) });
    const failure = await new Promise<Error>((resolve) => {
      stream.on('error', resolve);
      stream.resume();
    });
    expect(failure.message).toMatch(/^could not read 1\.png \(ENOENT/);
    expect(errors).toEqual([failure]);
  });

  it('writes a ZIP64 archive past 65,535 entries that a zip reader reads whole', async () => {
    const count = 70_000;
    const content = (i: number) => Buffer.from(`output ${i}`);
    const entries: BundleEntry[] = Array.from({ length: count }, (_, i) => ({
      name: `${i + 1}.png`,
      size: content(i).length,
      open: () => Promise.resolve(Readable.from([content(i)])),
    }));
    const manifest = Buffer.from('row,file\n1,1.png\n');
    const chunks: Buffer[] = [];
    for await (const chunk of createBundleStream(entries, [
      { name: 'manifest.csv', content: manifest },
    ]))
      chunks.push(chunk as Buffer);
    const zip = await yauzl.fromBufferPromise(Buffer.concat(chunks), { lazyEntries: true });
    expect(zip.entryCount).toBe(count + 1);
    const read = new Map<string, string>();
    const wanted = new Set(['1.png', '65536.png', '70000.png', 'manifest.csv']);
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.has(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            read.set(entry.fileName, Buffer.concat(parts).toString());
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
    expect(Object.fromEntries(read)).toEqual({
      '1.png': 'output 0',
      '65536.png': 'output 65535',
      '70000.png': 'output 69999',
      'manifest.csv': manifest.toString(),
    });
  }, 120_000);

  it('plans the size of each file, and null for one that is not there', async () => {
    const entries = outputs(3, 10);
    fs.rmSync(entries[2]!.file);
    expect(await plannedSizes(entries.map((entry) => entry.file))).toEqual([10, 10, null]);
    expect(await plannedSizes([])).toEqual([]);
  });
});
