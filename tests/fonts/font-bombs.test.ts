import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { readCoverage } from '../../main/engine/font-coverage.js';
import { FontFileError, MAX_FONT_DATA_BYTES } from '../../main/fonts/font-container.js';
import { readFont } from '../../main/fonts/read-font.js';
import { woff2Bomb, woffBomb } from './fixtures/font-bombs.js';
import { MONTSERRAT, readSfnt, toWoff, toWoff2, writeSfnt } from './fixtures/sfnt-fixtures.js';

const MiB = 1024 * 1024;
const TTF = fs.readFileSync(MONTSERRAT);

/** How readFont ends, how long it took, and how much memory it left allocated. */
async function attempt(bytes: Uint8Array) {
  const before = process.memoryUsage().arrayBuffers;
  const started = performance.now();
  const error = await readFont(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  return {
    error: error as AppError | null,
    ms: performance.now() - started,
    // Buffers stay counted until the next collection: a reader that inflated the bomb shows it.
    retainedMiB: (process.memoryUsage().arrayBuffers - before) / MiB,
  };
}

function expectRefused(result: Awaited<ReturnType<typeof attempt>>, code: string, text: RegExp) {
  expect(result.error).toBeInstanceOf(AppError);
  expect(result.error!.code).toBe(code);
  expect(result.error!.status).toBe(422);
  expect(result.error!.message).toMatch(text);
}

let woff2: Buffer;
let woff: Buffer;

beforeAll(async () => {
  // A WOFF2 hiding 512 MiB of zeros after its real tables, a WOFF 64 MiB after its largest.
  woff2 = await woff2Bomb(TTF, 512 * MiB);
  woff = await woffBomb(TTF, 64 * MiB);
}, 120_000);

describe('fonts built to exhaust memory', () => {
  it('refuses a WOFF2 whose tables inflate past their declared size, quickly and without keeping the excess', async () => {
    expect(woff2.length).toBeLessThan(TTF.length);
    const result = await attempt(woff2);
    expectRefused(result, 'font-too-large', /more than the \d+ bytes its directory declares/);
    expect(result.ms).toBeLessThan(2000);
    expect(result.retainedMiB).toBeLessThan(32);
  });

  it('refuses a WOFF table that inflates past its declared length', async () => {
    const result = await attempt(woff);
    expectRefused(result, 'font-too-large', /WOFF table '\w+' decompresses to more than/);
    expect(result.ms).toBeLessThan(2000);
    expect(result.retainedMiB).toBeLessThan(32);
  });

  it("stops the engine's coverage reader at the declared size too", () => {
    for (const bomb of [woff2, woff]) {
      const started = performance.now();
      let caught: unknown;
      try {
        readCoverage(bomb);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(FontFileError);
      expect((caught as FontFileError).code).toBe('font-too-large');
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it('refuses a font that declares more data than a font may hold, before inflating anything', async () => {
    const declaredWoff2 = toWoff2(TTF, undefined, { GPOS: MAX_FONT_DATA_BYTES + 1 });
    expectRefused(await attempt(declaredWoff2), 'font-too-large', /over the 32 MB limit/);
    const declaredWoff = toWoff(TTF);
    const record = declaredWoff.indexOf('GPOS', 44, 'latin1');
    declaredWoff.writeUInt32BE(0xfffffff0, record + 12); // origLength
    expectRefused(await attempt(declaredWoff), 'font-too-large', /over the 32 MB limit/);
  });

  it('refuses a WOFF2 whose stream inflates to less than its directory declares', async () => {
    const short = toWoff2(TTF, undefined, { GPOS: readSfnt(TTF).tables.get('GPOS')!.length + 8 });
    expectRefused(
      await attempt(short),
      'font-invalid',
      /instead of the \d+ its directory declares/,
    );
  });
});

/** Montserrat with its cmap or name table replaced. */
function withTable(tag: string, table: Buffer): Buffer {
  const sfnt = readSfnt(TTF);
  sfnt.tables.set(tag, table);
  return writeSfnt(sfnt);
}

describe('fonts built to exhaust time', () => {
  it('reads a cmap of 32,767 segments that each span the whole BMP in bounded time', async () => {
    const segCount = 32_767;
    const sub = Buffer.alloc(16 + segCount * 8);
    sub.writeUInt16BE(4, 0);
    sub.writeUInt16BE(Math.min(0xffff, sub.length), 2);
    sub.writeUInt16BE(segCount * 2, 6);
    for (let s = 0; s < segCount; s++) {
      sub.writeUInt16BE(0xfffe, 14 + s * 2); // end
      sub.writeUInt16BE(0, 16 + segCount * 2 + s * 2); // start
      sub.writeInt16BE(1, 16 + segCount * 4 + s * 2); // delta
    }
    const cmap = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12]), sub]);
    const started = performance.now();
    const info = await readFont(withTable('cmap', cmap));
    expect(performance.now() - started).toBeLessThan(2000);
    // Everything but U+FFFF, which delta 1 maps to glyph 0.
    expect(info.coverage).toEqual([[0, 0xfffe]]);
    expect(readCoverage(withTable('cmap', cmap))).toEqual([[0, 0xfffe]]);
  });

  it('reads a name table of 65,535 records that all point at one 64 KB string in bounded time', async () => {
    const count = 0xffff;
    const name = Buffer.alloc(6 + count * 12 + 0x10000, 0x41);
    name.writeUInt16BE(0, 0);
    name.writeUInt16BE(count, 2);
    name.writeUInt16BE(0, 4); // strings start at the table's start
    for (let i = 0; i < count; i++) {
      const record = 6 + i * 12;
      name.writeUInt16BE(3, record);
      name.writeUInt16BE(1, record + 2);
      name.writeUInt16BE(0x409, record + 4);
      name.writeUInt16BE(1 + (i % 2), record + 6);
      name.writeUInt16BE(0xfffe, record + 8);
      name.writeUInt16BE(0, record + 10);
    }
    const started = performance.now();
    const result = await attempt(withTable('name', name));
    expect(performance.now() - started).toBeLessThan(2000);
    // The family it finds is 32,767 characters of table bytes: refused, but quickly.
    expectRefused(result, 'font-invalid', /family name is longer/);
  });

  it('refuses a cmap whose subtable runs past the end of the table', async () => {
    const cmap = Buffer.from([0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12, 0, 12, 0, 0, 0, 0, 0xff]);
    expectRefused(await attempt(withTable('cmap', cmap)), 'font-invalid', /cmap.*damaged/);
  });
});
