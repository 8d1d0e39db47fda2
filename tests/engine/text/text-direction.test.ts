import { describe, expect, it } from 'vitest';
import { renderJob } from '../../../main/engine/render-job.js';
import { isRightToLeft } from '../../../main/engine/text/text-direction.js';
import type { RenderSuccess } from '../../../main/render/render-protocol.js';
import { decodePixels, maxChroma, type Pixels } from '../fixtures/pixels.js';
import { buildJob } from '../fixtures/template-builder.js';
import { format2Template, inkBounds } from './text-fixtures.js';

/**
 * What Skia does on its own (checked by rendering): it shapes Arabic (joined letters), orders
 * mixed runs by the bidi algorithm, and takes Arabic and Hebrew from the bundled Noto fonts in
 * any family. What it cannot know is a paragraph's base direction: left at left-to-right, an
 * Arabic sentence that ends in Latin or a number comes out in the wrong order, left-aligned.
 */
const box = { x: 60, y: 100, width: 960, height: 120 };

async function render(text: string, extra: Record<string, unknown> = {}, version: 1 | 2 = 2) {
  const template = format2Template([
    {
      kind: 'text',
      id: 'line',
      text,
      ...box,
      size: 56,
      font: { family: 'Be Vietnam Pro', weight: 400 },
      colour: '#000000',
      ...extra,
    },
  ]);
  const result = await renderJob(buildJob({ ...template, schemaVersion: version }));
  if (!result.ok) throw new Error(result.message);
  return result as RenderSuccess;
}

/** Dark-pixel count of each column from `from`, `count` columns. */
function columns(p: Pixels, from: number, count: number): number[] {
  const out: number[] = [];
  for (let x = from; x < from + count; x++) {
    let dark = 0;
    for (let y = 0; y < p.height; y++) {
      const i = (y * p.width + x) * 3;
      dark += 765 - (p.data[i]! + p.data[i + 1]! + p.data[i + 2]!);
    }
    out.push(dark);
  }
  return out;
}
const distance = (a: number[], b: number[]) =>
  a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0);

describe('right-to-left text', () => {
  it('takes the paragraph direction from its first strong letter', () => {
    expect(isRightToLeft('السعر 120 ريال - Sale', 'auto')).toBe(true);
    expect(isRightToLeft('120 שלום', 'auto')).toBe(true);
    expect(isRightToLeft('Sale שלום', 'auto')).toBe(false);
    expect(isRightToLeft('Sale', 'rtl')).toBe(true);
  });

  it('draws Arabic and Hebrew with the bundled fonts, nothing reported missing', async () => {
    const { report, bytes } = await render('مرحبا שלום');
    expect(report.missingGlyphs).toEqual([]);
    expect(inkBounds(await decodePixels(bytes))).not.toBeNull();
  });

  it('orders an Arabic line ending in Latin right to left and aligns it to the right', async () => {
    const text = 'السعر 120 ريال - Sale';
    const sale = await decodePixels((await render('Sale')).bytes);
    const saleInk = inkBounds(sale)!;
    const saleWidth = saleInk.right - saleInk.left + 1;
    const saleColumns = columns(sale, saleInk.left, saleWidth);
    const rtl = await decodePixels((await render(text)).bytes);
    const ink = inkBounds(rtl)!;
    // Right-aligned (align "left" means the start of the line, the right in Arabic).
    expect(box.x + box.width - ink.right).toBeLessThan(12);
    expect(ink.left - box.x).toBeGreaterThan(100);
    // "Sale", the last words, are at the left end of the line, not the right.
    const atLeft = distance(columns(rtl, ink.left, saleWidth), saleColumns);
    const atRight = distance(columns(rtl, ink.right - saleWidth + 1, saleWidth), saleColumns);
    expect(atLeft).toBeLessThan(atRight * 0.3);
    // Format 1 keeps its left-to-right base: "Sale" at the right end, text on the left.
    const ltr = await decodePixels((await render(text, {}, 1)).bytes);
    const ltrInk = inkBounds(ltr)!;
    expect(ltrInk.left - box.x).toBeLessThan(6);
    const ltrAtRight = distance(columns(ltr, ltrInk.right - saleWidth + 1, saleWidth), saleColumns);
    expect(ltrAtRight).toBeLessThan(atRight * 0.3);
  });

  it('lays styled runs of a right-to-left line from the right', async () => {
    const { bytes } = await render('السعر 120 ريال [جديد]{#E53935}', { markup: true });
    const pixels = await decodePixels(bytes);
    const ink = inkBounds(pixels)!;
    const third = Math.floor((ink.right - ink.left) / 3);
    // The coloured last word is at the left end.
    expect(maxChroma(pixels, ink.left, ink.top, third, ink.bottom - ink.top)).toBeGreaterThan(150);
    expect(maxChroma(pixels, ink.right - third, ink.top, third, ink.bottom - ink.top)).toBeLessThan(
      20,
    );
  });

  it('wraps a long Arabic paragraph with its first words on the first line, at the right', async () => {
    const words = 'خصم كبير على جميع المنتجات في المتجر اليوم فقط مع توصيل مجاني';
    const { report, bytes } = await render(words, { height: 300, width: 700 });
    expect(report.layers[0]!.lines).toBeGreaterThan(1);
    const first = await decodePixels(
      (await render(words.split(' ').slice(0, 2).join(' '), { width: 700 })).bytes,
    );
    const pixels = await decodePixels(bytes);
    // The first two words start the first line at its right edge, as they do alone.
    const alone = inkBounds(first)!;
    const top = 100;
    const firstLine = columns(
      { ...pixels, data: pixels.data.subarray(0, (top + 80) * pixels.width * 3), height: top + 80 },
      alone.left,
      alone.right - alone.left,
    );
    const aloneColumns = columns(first, alone.left, alone.right - alone.left);
    expect(distance(firstLine, aloneColumns)).toBeLessThan(
      aloneColumns.reduce((a, b) => a + b, 0) * 0.2,
    );
  });
});
