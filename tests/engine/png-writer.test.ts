import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeCanvas, encodePng } from '../../main/engine/encode-image.js';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { filterImage, writePng, type PngFilter } from '../../main/engine/png-writer.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import { renderTemplate } from '../../main/engine/render-template.js';
import type { Ratio } from '../../shared/template-format.js';
import { buildJob, readCatalogTemplates } from '../../scripts/preview-template.js';

/** Opaque RGBA: a gradient, a flat block, stripes and noise, so every filter has work. */
function testPixels(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      seed = (seed * 1103515245 + 12345) >>> 0;
      const noise = y > height / 2 ? seed >>> 24 : 0;
      rgba[i] = (x * 255) / Math.max(1, width - 1);
      rgba[i + 1] = x < width / 3 ? 200 : (y * 7) & 255;
      rgba[i + 2] = (x % 8 < 4 ? 30 : 220) ^ noise;
      rgba[i + 3] = 255;
    }
  }
  return rgba;
}

async function decodeRgb(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(3);
  return { data, width: info.width, height: info.height };
}

function rgbOf(rgba: Uint8Array): Buffer {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) {
    rgb[q] = rgba[p]!;
    rgb[q + 1] = rgba[p + 1]!;
    rgb[q + 2] = rgba[p + 2]!;
  }
  return rgb;
}

/** The IDAT's deflate stream inflated by zlib: the filtered rows, each with its filter byte. */
function inflateIdat(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT')
      parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return zlib.inflateSync(Buffer.concat(parts));
}

const FILTERS: PngFilter[] = ['none', 'sub', 'up', 'paeth', 'auto'];

describe('png-writer', () => {
  it('decodes to exactly the pixels it was given, with every filter and odd sizes', async () => {
    for (const [width, height] of [
      [1, 1],
      [1, 9],
      [9, 1],
      [37, 23],
      [300, 200],
    ] as const) {
      const rgba = testPixels(width, height);
      for (const filter of FILTERS) {
        for (const level of [1, 4, 9]) {
          const decoded = await decodeRgb(await writePng(rgba, width, height, { filter, level }));
          expect({ width: decoded.width, height: decoded.height }).toEqual({ width, height });
          expect(decoded.data.equals(rgbOf(rgba)), `${width}×${height} ${filter} ${level}`).toBe(
            true,
          );
        }
      }
    }
  });

  it('writes print-size images (a kernel of their own) with the same pixels', async () => {
    const [width, height] = [3600, 3000];
    const rgba = testPixels(width, height);
    const png = await writePng(rgba, width, height, { filter: 'auto', level: 4 });
    expect((await decodeRgb(png)).data.equals(rgbOf(rgba))).toBe(true);
  }, 60_000);

  it('gives the same bytes for the same pixels, every time', async () => {
    const rgba = testPixels(300, 200);
    const first = await writePng(rgba, 300, 200, { filter: 'auto', level: 4 });
    for (let i = 0; i < 3; i++) {
      expect((await writePng(rgba, 300, 200, { filter: 'auto', level: 4 })).equals(first)).toBe(
        true,
      );
    }
  });
});

describe('the default PNG encoder on built-in templates', () => {
  // The cards where the encoders differ most from Skia's size (see bench/png-encoders.ts): the
  // flat patterned sale card needs None or Sub, the photo card Up.
  const cases: Array<[string, Ratio]> = [
    ['product-promo', 'square'],
    ['sale-1212', 'landscape'],
    ['countdown', 'portrait'],
  ];
  const catalog = readCatalogTemplates();

  it.each(cases)(
    '%s %s: same pixels, same bytes twice, within 110 percent of Skia',
    async (slug, ratio) => {
      registerBundledFonts(FONTS_DIR);
      const entry = catalog.find((t) => t.slug === slug);
      if (!entry) throw new Error(`${slug} is not in the catalog`);
      const { canvas } = await renderTemplate(buildJob(entry, ratio, entry.template.sampleValues));
      const png = await encodeCanvas(canvas, { format: 'png' });
      expect((await encodeCanvas(canvas, { format: 'png' })).equals(png)).toBe(true);
      expect((await decodeRgb(png)).data.equals(rgbOf(canvas.data()))).toBe(true);
      const skia = (await canvas.encode('png')).length;
      expect(png.length / skia).toBeLessThanOrEqual(1.1);
    },
    30_000,
  );

  it.each([
    ['product-promo', 'square', 'Paeth + Z_RLE', [4]],
    ['quote-card', 'square', "the trial's filter", [0, 1, 2]],
  ] as const)(
    '%s %s takes %s, no larger than the trial filter at level 4',
    async (slug, ratio, _what, filters) => {
      registerBundledFonts(FONTS_DIR);
      const entry = catalog.find((t) => t.slug === slug)!;
      const { canvas } = await renderTemplate(buildJob(entry, ratio, entry.template.sampleValues));
      const { width, height } = canvas;
      const rgba = canvas.data();
      const png = await writePng(rgba, width, height, { filter: 'auto', level: 4 });
      const rows = inflateIdat(png);
      const rowBytes = 1 + width * 3;
      const used = new Set(Array.from({ length: height }, (_, y) => rows[y * rowBytes]));
      // Up's first row is written as None, so a card filtered Up shows both.
      expect([...used].every((f) => (filters as readonly number[]).includes(f!))).toBe(true);
      expect((await decodeRgb(png)).data.equals(rgbOf(rgba))).toBe(true);
      const trialIdat = zlib.deflateSync(filterImage(rgba, width, height, 'auto'), { level: 4 });
      expect(png.length).toBeLessThanOrEqual(trialIdat.length + 57);
    },
    30_000,
  );

  it('scales down to outputWidth with the same pixels as resizing without alpha', async () => {
    const rgba = testPixels(300, 200);
    const canvasLike = { data: () => Buffer.from(rgba), width: 300, height: 200 };
    const png = await encodeCanvas(canvasLike as unknown as Parameters<typeof encodeCanvas>[0], {
      format: 'png',
      outputWidth: 120,
    });
    const expected = await sharp(Buffer.from(rgba), {
      raw: { width: 300, height: 200, channels: 4 },
    })
      .removeAlpha()
      .resize({ width: 120 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const decoded = await decodeRgb(png);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 120, height: 80 });
    expect(decoded.data.equals(expected.data)).toBe(true);
    // The presets all decode to the same pixels.
    for (const preset of ['fast', 'balanced', 'small'] as const) {
      const bytes = await encodePng(rgba, 300, 200, preset);
      expect((await decodeRgb(bytes)).data.equals(rgbOf(rgba))).toBe(true);
    }
  });
});
