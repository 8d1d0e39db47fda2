import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { adler32, adler32Combine, bandStats, deflateBands } from '../../main/engine/png-bands.js';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { writePng } from '../../main/engine/png-writer.js';
import { PNG_COMPRESSION } from '../../main/engine/encode-image.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import { renderTemplate } from '../../main/engine/render-template.js';
import { buildJob, readCatalogTemplates } from '../../scripts/preview-template.js';

registerBundledFonts(FONTS_DIR);
const OPTIONS = PNG_COMPRESSION.balanced;

/** Two rows of a product batch: the same card with another name and price. */
async function batchCards(): Promise<Array<{ rgba: Buffer; width: number; height: number }>> {
  const entry = (await readCatalogTemplates()).find((e) => e.slug === 'product-promo')!;
  const cards = [];
  for (const [name, price] of [
    ['Bình giữ nhiệt 500 ml', 249000],
    ['Áo thun cotton', 189000],
  ] as const) {
    const values = { ...entry.template.sampleValues, headline: name, price };
    const drawn = await renderTemplate(buildJob(entry, 'square', values));
    cards.push({
      rgba: Buffer.from(drawn.canvas.data()),
      width: drawn.canvas.width,
      height: drawn.canvas.height,
    });
  }
  return cards;
}

async function rgbOf(png: Buffer): Promise<Buffer> {
  return sharp(png).raw().toBuffer();
}

describe('PNG image data deflated in bands', () => {
  it('copies the bands a card shares with the last one, and the bytes are those of a cold encode', async () => {
    const [first, second] = await batchCards();
    const encode = (card: typeof first, reuseBands: boolean) =>
      writePng(card!.rgba, card!.width, card!.height, { ...OPTIONS, reuseBands });
    await encode(first, true);
    const before = { ...bandStats };
    const warm = await encode(second, true);
    const reused = bandStats.reused - before.reused;
    const bands = bandStats.bands - before.bands;
    // The name and the price change a few bands; the art, background and footer do not.
    expect(reused).toBeGreaterThan(bands / 2);
    expect(reused).toBeLessThan(bands);
    const cold = await encode(second, false);
    expect(warm.equals(cold)).toBe(true);
    const expected = await sharp(second!.rgba, {
      raw: { width: second!.width, height: second!.height, channels: 4 },
    })
      .removeAlpha()
      .raw()
      .toBuffer();
    expect((await rgbOf(warm)).equals(expected)).toBe(true);
  });

  it('writes one zlib stream that zlib inflates, checksum included, at every level and strategy', () => {
    const rowBytes = 1 + 300 * 3;
    const filtered = crypto.randomBytes(rowBytes * 100);
    // Half the rows repeat, as flat art does, so matches reach across bands.
    for (let row = 50; row < 100; row += 1)
      filtered.copy(
        filtered,
        row * rowBytes,
        (row % 7) * rowBytes,
        (row % 7) * rowBytes + rowBytes,
      );
    for (const settings of [
      { level: 1, strategy: zlib.constants.Z_DEFAULT_STRATEGY },
      { level: 4, strategy: zlib.constants.Z_DEFAULT_STRATEGY },
      { level: 9, strategy: zlib.constants.Z_DEFAULT_STRATEGY },
      { level: 1, strategy: zlib.constants.Z_RLE },
    ]) {
      const stream = deflateBands(filtered, rowBytes, settings, false);
      expect(zlib.inflateSync(stream).equals(filtered)).toBe(true);
      // As small as one deflate of the whole, within a few bytes a band.
      const whole = zlib.deflateSync(filtered, settings).length;
      expect(stream.length).toBeLessThanOrEqual(whole * 1.01 + 64);
    }
  });

  it('computes Adler-32 as zlib does, and combines two pieces into the checksum of both', () => {
    const data = crypto.randomBytes(70_000);
    const whole = zlib.deflateSync(data);
    const trailer = whole.readUInt32BE(whole.length - 4);
    expect(adler32(data)).toBe(trailer);
    for (const cut of [0, 1, 5552, 65521, 69_999]) {
      const combined = adler32Combine(
        adler32(data.subarray(0, cut)),
        adler32(data.subarray(cut)),
        data.length - cut,
      );
      expect(combined).toBe(trailer);
    }
    expect(adler32(Buffer.alloc(0))).toBe(1);
  });
});
