import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError, type AppError } from '../../shared/errors.js';
import { unpackImageZip } from '../../main/ingest/image-zip.js';
import { ZIP_LIMITS } from '../../main/ingest/zip/zip-limits.js';
import {
  deflatedEntry,
  repeatedEntry,
  storedEntry,
  writeZip,
  type ZipEntrySpec,
} from '../helpers/zip-builder.js';
import { corpus, createTempDir } from './fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

const PNG = fs.readFileSync(corpus('pngsuite/basn2c08.png'));

let runs = 0;
/** Unpacks `entries` into a fresh destination; returns it with the files found there. */
async function unpack(entries: ZipEntrySpec[], limits = ZIP_LIMITS.images) {
  runs += 1;
  const zip = temp.file(`images-${runs}.zip`, writeZip(entries));
  const parent = path.join(temp.dir, `batch-${runs}`);
  fs.mkdirSync(parent);
  const destination = path.join(parent, 'images');
  const outcome = await unpackImageZip(zip, destination, limits).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  const files = (dir: string): string[] =>
    fs.existsSync(dir)
      ? (fs.readdirSync(dir, { recursive: true }) as string[])
          .filter((name) => fs.statSync(path.join(dir, name)).isFile())
          .sort()
      : [];
  return { destination, error: outcome, files: files(destination), left: fs.readdirSync(parent) };
}

function problem(error: unknown): AppError {
  expect(isAppError(error)).toBe(true);
  return error as AppError;
}

describe('unpacking a zip of images', () => {
  it('unpacks the images, in their folders, and nothing else', async () => {
    const { error, files, destination, left } = await unpack([
      storedEntry('photos/', ''),
      deflatedEntry('photos/sku-1.png', PNG),
      deflatedEntry('photos/Đồng/sku-2.PNG', PNG),
      deflatedEntry('readme.txt', 'not an image'),
      deflatedEntry('__MACOSX/photos/._sku-1.png', 'resource fork'),
    ]);
    expect(error).toBeUndefined();
    expect(files).toEqual(['photos/sku-1.png', 'photos/Đồng/sku-2.PNG'].sort());
    expect(fs.readFileSync(path.join(destination, 'photos/sku-1.png'))).toEqual(PNG);
    expect(left).toEqual(['images']); // no staging folder left behind
  });

  it.each([
    [
      'a name that leaves the folder',
      [deflatedEntry('../escape.png', PNG)],
      /invalid relative path/,
    ],
    ['an absolute name', [deflatedEntry('/etc/escape.png', PNG)], /absolute path/],
    [
      'a symbolic link',
      [{ ...storedEntry('photos/link.png', '/etc/passwd'), unixMode: 0o120777 }],
      /"photos\/link.png" is a symbolic link/,
    ],
    [
      'two names one file system takes for one file',
      [deflatedEntry('photos/A.png', PNG), deflatedEntry('photos/a.png', PNG)],
      /"photos\/a.png" appears twice/,
    ],
    [
      'a password-protected image',
      [{ ...deflatedEntry('photos/secret.png', PNG), flags: 0x1 }],
      /password-protected/,
    ],
  ])('refuses %s as invalid-archive, writing nothing', async (_case, entries, message) => {
    const { error, left } = await unpack([deflatedEntry('photos/fine.png', PNG), ...entries]);
    expect(problem(error).code).toBe('invalid-archive');
    expect(problem(error).message).toMatch(/^The images zip cannot be used: /);
    expect(problem(error).message).toMatch(message);
    expect(left).toEqual([]);
  });

  it('refuses a bomb from what the zip declares, before writing anything', async () => {
    const bomb = await repeatedEntry('photos/huge.png', '', '\0'.repeat(1 << 16), 64, '');
    const { error, left } = await unpack([bomb]);
    expect(problem(error).code).toBe('archive-limits-exceeded');
    expect(problem(error).message).toContain('"photos/huge.png" is compressed suspiciously well');
    expect(left).toEqual([]);
  });

  it('refuses images that inflate past their headers, removing what was written', async () => {
    const liar = {
      ...deflatedEntry('photos/liar.png', Buffer.alloc(64 * 1024, 7)),
      declaredSize: 100,
    };
    const { error, left } = await unpack([deflatedEntry('photos/fine.png', PNG), liar]);
    expect(problem(error).code).toBe('archive-limits-exceeded');
    expect(left).toEqual([]);
  });

  it('does not hold files it never unpacks against the limits', async () => {
    const limits = { ...ZIP_LIMITS.images, maxEntryBytes: 64 * 1024 };
    const video = await repeatedEntry('clip.mov', '', 'frame '.repeat(1000), 100, '');
    const { error, files } = await unpack([video, deflatedEntry('photos/a.png', PNG)], limits);
    expect(error).toBeUndefined();
    expect(files).toEqual(['photos/a.png']);
  });
});
