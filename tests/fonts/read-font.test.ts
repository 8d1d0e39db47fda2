import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { readCoverage } from '../../main/engine/font-coverage.js';
import { sniffFontFormat } from '../../main/fonts/font-container.js';
import { readFont } from '../../main/fonts/read-font.js';
import {
  BE_VIETNAM_PRO,
  EMOJI_WOFF2,
  FONTS_DIR,
  MONTSERRAT,
  NOTO_SERIF_BOLD,
  testFont,
  toWoff,
  toWoff2,
} from './fixtures/sfnt-fixtures.js';

async function expectInvalid(bytes: Uint8Array, message: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await readFont(bytes);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe('font-invalid');
  expect((caught as AppError).message).toMatch(message);
}

describe('readFont', () => {
  it('reads family, weight, style and licence from the name, OS/2 and head tables', async () => {
    const italic = await readFont(
      fs.readFileSync(path.join(FONTS_DIR, 'be-vietnam-pro', 'BeVietnamPro_400Regular_Italic.ttf')),
    );
    expect(italic).toMatchObject({
      format: 'ttf',
      family: 'Be Vietnam Pro',
      weight: 400,
      style: 'italic',
    });
    expect(italic.licence).toMatch(/Open Font License/);
    const extraBold = await readFont(
      fs.readFileSync(path.join(FONTS_DIR, 'montserrat', 'Montserrat_800ExtraBold.ttf')),
    );
    // The typographic family (name ID 16), not the legacy "Montserrat ExtraBold".
    expect(extraBold).toMatchObject({ family: 'Montserrat', weight: 800, style: 'normal' });
  });

  it('reports the scripts a font covers: Vietnamese for Be Vietnam Pro, not for a Latin-only font', async () => {
    expect((await readFont(fs.readFileSync(BE_VIETNAM_PRO))).scripts).toEqual(
      expect.arrayContaining(['latin', 'vietnamese', 'latin-extended']),
    );
    expect((await readFont(fs.readFileSync(NOTO_SERIF_BOLD))).scripts).toEqual([
      'latin',
      'vietnamese',
      'latin-extended',
      'cyrillic',
      'greek',
    ]);
    const latinOnly = await readFont(testFont(MONTSERRAT, 'Test Latin', { latinOnly: true }));
    expect(latinOnly.family).toBe('Test Latin');
    expect(latinOnly.scripts).toEqual(['latin']);
    expect((await readFont(fs.readFileSync(EMOJI_WOFF2))).scripts).toEqual([]);
    const emoji = await readFont(
      fs.readFileSync(
        path.join(FONTS_DIR, 'noto-color-emoji', 'noto-color-emoji-emoji-400-normal.woff2'),
      ),
    );
    expect(emoji.scripts).toEqual(['emoji']);
  });

  it('reads the same font the same way as TTF, WOFF and WOFF2', async () => {
    const ttf = testFont(MONTSERRAT, 'Test Display');
    const fromTtf = await readFont(ttf);
    const fromWoff = await readFont(toWoff(ttf));
    const fromWoff2 = await readFont(toWoff2(ttf));
    expect(fromWoff.format).toBe('woff');
    expect(fromWoff2.format).toBe('woff2');
    for (const other of [fromWoff, fromWoff2]) {
      expect({ ...other, format: 'ttf' }).toEqual(fromTtf);
    }
    // The engine's coverage reader agrees for WOFF too (workers read it from the stored file).
    expect(readCoverage(toWoff(ttf))).toEqual(fromTtf.coverage);
  });

  it('reads a WOFF2 made by a real encoder, with transformed glyph tables', async () => {
    expect(await readFont(fs.readFileSync(EMOJI_WOFF2))).toMatchObject({
      format: 'woff2',
      family: 'Noto Color Emoji',
    });
  });

  it('sniffs the format by the first bytes, whatever the file is called', async () => {
    expect(sniffFontFormat(fs.readFileSync(MONTSERRAT))).toBe('ttf');
    expect(sniffFontFormat(Buffer.from('OTTO\0\0'))).toBe('otf');
    expect(sniffFontFormat(Buffer.from('wOFF'))).toBe('woff');
    expect(sniffFontFormat(Buffer.from('wOF2'))).toBe('woff2');
    expect(sniffFontFormat(Buffer.from('\x89PNG'))).toBeNull();
    expect(sniffFontFormat(Buffer.alloc(2))).toBeNull();
  });

  it('refuses files that are not fonts', async () => {
    const png = fs.readFileSync(path.join(FONTS_DIR, '..', 'catalog', 'product-promo', 'logo.png'));
    await expectInvalid(png, /not a font/);
    await expectInvalid(crypto.randomBytes(4096), /not a font/);
    await expectInvalid(Buffer.alloc(0), /not a font/);
    await expectInvalid(Buffer.from('ttcf\0\x01\0\0'), /font collection/);
  });

  it('refuses truncated fonts in every format, saying the file is incomplete', async () => {
    const ttf = testFont(MONTSERRAT, 'Test Display');
    for (const bytes of [ttf, toWoff(ttf), toWoff2(ttf), fs.readFileSync(EMOJI_WOFF2)]) {
      await expectInvalid(bytes.subarray(0, Math.floor(bytes.length / 2)), /incomplete/);
      await expectInvalid(bytes.subarray(0, 30), /incomplete/);
    }
  });

  it('refuses a font whose tables are damaged or missing', async () => {
    const ttf = Buffer.from(testFont(MONTSERRAT, 'Test Display'));
    // A table count of zero: a corrupt header.
    const noTables = Buffer.from(ttf);
    noTables.writeUInt16BE(0, 4);
    await expectInvalid(noTables, /corrupt/);
    // Rename the cmap table's tag: a font without a character map.
    const noCmap = Buffer.from(ttf);
    const at = noCmap.indexOf('cmap', 12, 'latin1');
    noCmap.write('xmap', at, 'latin1');
    await expectInvalid(noCmap, /'cmap'/);
    // Damage one compressed WOFF table.
    const woff = toWoff(ttf);
    const nameRecord = woff.indexOf('name', 44, 'latin1');
    const nameOffset = woff.readUInt32BE(nameRecord + 4);
    woff.fill(0xff, nameOffset, nameOffset + 8);
    await expectInvalid(woff, /damaged|decompress/);
  });
});
