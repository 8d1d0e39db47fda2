import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { RenderJob, RenderSuccess } from '../../main/render/render-protocol.js';
import { countNot, decodePixels, maxChroma } from './fixtures/pixels.js';
import { buildJob, buildTemplate } from './fixtures/template-builder.js';

async function ok(job: RenderJob): Promise<RenderSuccess> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}

const headline = (extra: Record<string, unknown> = {}) =>
  buildTemplate({
    variables: [{ name: 'headline', type: 'text' }],
    layers: [
      {
        kind: 'text',
        id: 'headline',
        text: '{{headline}}',
        x: 100,
        y: 100,
        width: 600,
        height: 160,
        size: 72,
        minSize: 32,
        maxLines: 2,
        font: { family: 'Be Vietnam Pro', weight: 700 },
        colour: '#000000',
        ...extra,
      },
    ],
  });

const longText = Array.from({ length: 40 }, (_, i) => `Tết${i} vui`)
  .join(' ')
  .slice(0, 300);

describe('text layers', () => {
  it('keeps a short headline at its preferred size', async () => {
    const { report } = await ok(buildJob(headline(), { headline: 'Xin chào' }));
    expect(report.layers).toEqual([
      { id: 'headline', fittedSize: 72, lines: 1, truncated: false, overflow: false },
    ]);
  });

  it('shrinks 300 characters in a 20-character box to minSize, then ellipsises, never overflowing', async () => {
    expect(longText.length).toBe(300);
    const { bytes, report } = await ok(buildJob(headline(), { headline: longText }));
    expect(report.layers[0]).toEqual({
      id: 'headline',
      fittedSize: 32,
      lines: 2,
      truncated: true,
      overflow: false,
    });
    // Nothing is drawn outside the layer's box.
    const pixels = await decodePixels(bytes);
    const white: [number, number, number] = [255, 255, 255];
    expect(countNot(pixels, white, { x: 0, y: 0, width: 1080, height: 100 })).toBe(0);
    expect(countNot(pixels, white, { x: 0, y: 260, width: 1080, height: 820 })).toBe(0);
    expect(countNot(pixels, white, { x: 700, y: 100, width: 380, height: 160 })).toBe(0);
    expect(countNot(pixels, white, { x: 100, y: 100, width: 600, height: 160 })).toBeGreaterThan(0);
  });

  it('shrinks a medium text to the largest size that fits', async () => {
    const { report } = await ok(
      buildJob(headline(), { headline: 'Khuyến mãi lớn nhất năm cho mọi đơn hàng' }),
    );
    const layer = report.layers[0]!;
    expect(layer.fittedSize).toBeLessThan(72);
    expect(layer.fittedSize).toBeGreaterThan(32);
    expect(layer).toMatchObject({ lines: 2, truncated: false, overflow: false });
  });

  it('with fit "ellipsis" keeps the size and ellipsises', async () => {
    const { report } = await ok(buildJob(headline({ fit: 'ellipsis' }), { headline: longText }));
    expect(report.layers[0]).toMatchObject({ fittedSize: 72, truncated: true, overflow: false });
  });

  it('breaks a word longer than the box between graphemes instead of overflowing', async () => {
    const { report } = await ok(
      buildJob(headline({ minSize: 72, height: 200 }), { headline: 'Ắ'.repeat(40) }),
    );
    expect(report.layers[0]).toMatchObject({ lines: 2, truncated: true, overflow: false });
  });

  it('fits a box shorter than one line by going below minSize rather than spilling out', async () => {
    const { report } = await ok(
      buildJob(headline({ height: 20, maxLines: undefined }), { headline: 'Ắ Ẫ Ệ' }),
    );
    expect(report.layers[0]).toMatchObject({ overflow: false });
    expect(report.layers[0]!.fittedSize).toBeLessThanOrEqual(20 / 1.2);
  });

  it('renders decomposed (NFD) Vietnamese byte-identical to precomposed (NFC)', async () => {
    const nfc = 'Ắ Ẫ Ệ Ỗ Ự — Tết Nguyên Đán, Chúc mừng năm mới'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    const template = headline({ text: `${nfd} {{headline}}` });
    const a = await ok(buildJob(template, { headline: nfc }));
    const b = await ok(buildJob(headline({ text: `${nfc} {{headline}}` }), { headline: nfd }));
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it('keeps stacked marks of capitals inside a tight box instead of cutting them', async () => {
    const tight = { y: 200, height: 40, size: 24, minSize: 18, maxLines: 1 };
    const style = { letterSpacing: 4, transform: 'uppercase' };
    const text = { headline: 'khuyến mãi ẫ ệ ỗ' };
    const a = await ok(buildJob(headline({ ...tight, ...style }), text));
    expect(a.report.layers[0]).toMatchObject({ lines: 1, overflow: false });
    // The same line in a tall box is not clipped at all: the tight box must show all of it.
    const size = a.report.layers[0]!.fittedSize;
    const tall = { y: 200, height: 200, size, minSize: size, maxLines: 1 };
    const b = await ok(buildJob(headline({ ...tall, ...style }), text));
    const [pa, pb] = [await decodePixels(a.bytes), await decodePixels(b.bytes)];
    expect(countNot(pb, [255, 255, 255], { x: 0, y: 240, width: 1080, height: 160 })).toBe(0);
    expect(pa.data.equals(pb.data)).toBe(true);
  });

  it('upper-cases Vietnamese with its marks', async () => {
    const plain = await ok(
      buildJob(headline({ transform: 'uppercase' }), { headline: 'tết ất tỵ' }),
    );
    const upper = await ok(buildJob(headline(), { headline: 'TẾT ẤT TỴ' }));
    expect(Buffer.from(plain.bytes).equals(Buffer.from(upper.bytes))).toBe(true);
  });

  it('draws emoji in colour, not as empty boxes, and reports no missing glyph', async () => {
    const template = headline({ colour: '#000000', size: 96, minSize: 96 });
    const { bytes, report } = await ok(buildJob(template, { headline: '🎉😀🇻🇳' }));
    expect(report.missingGlyphs).toEqual([]);
    const pixels = await decodePixels(bytes);
    // Black text cannot make chroma: only colour glyphs do.
    expect(maxChroma(pixels, 100, 100, 600, 160)).toBeGreaterThan(100);
  });

  it('reports characters no bundled font draws', async () => {
    const { report } = await ok(buildJob(headline(), { headline: 'Tết 漢 ₫ 🎉' }));
    expect(report.missingGlyphs).toEqual(['漢']);
  });

  it('draws a background pill behind the text', async () => {
    const template = headline({
      colour: '#FFFFFF',
      background: { paint: '#E11D48', radius: 20, padding: 12 },
    });
    const { bytes } = await ok(buildJob(template, { headline: 'Giảm 50%' }));
    const pixels = await decodePixels(bytes);
    expect(maxChroma(pixels, 100, 100, 40, 40)).toBeGreaterThan(150);
    expect(countNot(pixels, [255, 255, 255], { x: 690, y: 100, width: 10, height: 160 })).toBe(0);
  });
});
