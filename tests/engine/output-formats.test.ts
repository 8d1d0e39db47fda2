import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors.js';
import { catalog, renderSample, renderer } from '../helpers/engine-renderer.js';

const CERTIFICATE = 'tmpl_certificate_award';
const REFERENCE = 'tmpl_product_promo';

describe('raster output formats', () => {
  it('encodes AVIF at most 60 % the size of the PNG of the same render', async () => {
    const png = await renderSample(REFERENCE, { target: 'square', format: 'png' });
    const avif = await renderSample(REFERENCE, { target: 'square', format: 'avif' });
    expect(avif.contentType).toBe('image/avif');
    const meta = await sharp(Buffer.from(avif.bytes)).metadata();
    expect(meta.format).toBe('heif');
    expect(meta.compression).toBe('av1');
    expect([meta.width, meta.height]).toEqual([1080, 1080]);
    expect(avif.bytes.byteLength).toBeLessThanOrEqual(png.bytes.byteLength * 0.6);
  });

  it('leaves the background out with background: transparent, in png, webp and avif', async () => {
    for (const format of ['png', 'webp', 'avif'] as const) {
      const result = await renderSample(CERTIFICATE, {
        target: 'square',
        format,
        background: 'transparent',
      });
      const { data, info } = await sharp(Buffer.from(result.bytes))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(info.channels, format).toBe(4);
      // The corner is outside the frame: only the background was there.
      expect(data[3], `${format} corner alpha`).toBe(0);
      let opaque = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! === 255) opaque++;
      expect(opaque, `${format} opaque pixels`).toBeGreaterThan(1000);
    }
    const opaque = await renderSample(CERTIFICATE, { target: 'square', format: 'png' });
    expect((await sharp(Buffer.from(opaque.bytes)).metadata()).channels).toBe(3);
  });

  it('draws at scale 2 for retina: a 1080 px layout is 2160 px', async () => {
    const result = await renderSample(CERTIFICATE, { target: 'square', format: 'png', scale: 2 });
    expect([result.report.width, result.report.height]).toEqual([2160, 2160]);
    const meta = await sharp(Buffer.from(result.bytes)).metadata();
    expect([meta.width, meta.height]).toEqual([2160, 2160]);
  });

  it('renders a print layout with its bleed: A4 at 150 dpi plus 3 mm a side', async () => {
    const layout = catalog.get(CERTIFICATE)!.template.layouts.a4!;
    const result = await renderSample(CERTIFICATE, { target: 'a4', format: 'jpeg' });
    const bleed = (3 / 25.4) * 150;
    expect(result.report.width).toBe(Math.round(layout.width + 2 * bleed));
    expect(result.report.height).toBe(Math.round(layout.height + 2 * bleed));
  });
});

describe('output options a format cannot honour', () => {
  const problemsOf = (request: Parameters<typeof renderer.prepare>[0]) => {
    try {
      renderer.prepare(request);
    } catch (error) {
      if (isAppError(error)) return error.problems?.map((p) => p.path) ?? [];
      throw error;
    }
    return [];
  };
  const base = {
    templateId: CERTIFICATE,
    values: catalog.get(CERTIFICATE)!.template.sampleValues,
  };

  it('are 422s naming the option', () => {
    expect(problemsOf({ ...base, format: 'jpeg', background: 'transparent' })).toEqual([
      'background',
    ]);
    expect(problemsOf({ ...base, format: 'pdf', background: 'transparent' })).toEqual([
      'background',
    ]);
    expect(problemsOf({ ...base, format: 'pdf', scale: 2 })).toEqual(['scale']);
    // 1754 px A4 + bleed at scale 3 is over the 5000 px canvas limit.
    expect(problemsOf({ ...base, format: 'png', target: 'a4', scale: 3 })).toEqual(['scale']);
    expect(problemsOf({ ...base, format: 'png', target: 'a4', scale: 2 })).toEqual([]);
  });
});
