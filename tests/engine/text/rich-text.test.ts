import { describe, expect, it } from 'vitest';
import { applyFont, measure } from '../../../main/engine/fit-text.js';
import { renderJob } from '../../../main/engine/render-job.js';
import { fitRichText } from '../../../main/engine/text/rich-text.js';
import { parseMarkup, PLAIN_STYLE } from '../../../main/engine/text/text-runs.js';
import type { RenderJob, RenderSuccess } from '../../../main/render/render-protocol.js';
import { poppler, rasterisePdf } from '../../helpers/poppler.js';
import { decodePixels, maxChroma } from '../fixtures/pixels.js';
import { buildJob } from '../fixtures/template-builder.js';
import {
  format2Template,
  inkBounds,
  longestDarkRuns,
  measuringContext,
  richSpec,
} from './text-fixtures.js';

async function ok(job: RenderJob): Promise<RenderSuccess> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}

const box = { x: 100, y: 100, width: 880, height: 200 };
const textLayer = (extra: Record<string, unknown>) => ({
  kind: 'text',
  id: 'price',
  text: '{{price}}',
  ...box,
  size: 80,
  font: { family: 'Be Vietnam Pro', weight: 400 },
  colour: '#000000',
  verticalAlign: 'middle',
  ...extra,
});

describe('rich text', () => {
  it('draws a colour run in its colour and the rest in the layer colour', async () => {
    const template = format2Template([textLayer({ markup: true })], ['price']);
    const { bytes } = await ok(buildJob(template, { price: '[SALE]{#E53935} today' }));
    const pixels = await decodePixels(bytes);
    const ink = inkBounds(pixels)!;
    const mid = Math.round((ink.left + ink.right) / 2);
    // "SALE" (left) is red; "today" (right) is grey-black only.
    expect(
      maxChroma(pixels, ink.left, ink.top, mid - ink.left, ink.bottom - ink.top),
    ).toBeGreaterThan(150);
    expect(
      maxChroma(pixels, mid + 40, ink.top, ink.right - mid - 40, ink.bottom - ink.top),
    ).toBeLessThan(20);
  });

  it('leaves asterisks and brackets alone without markup, and in format 1', async () => {
    const value = '[SALE]{#E53935} **now**';
    for (const template of [
      format2Template([textLayer({})], ['price']),
      { ...format2Template([textLayer({ markup: true })], ['price']), schemaVersion: 1 as const },
    ]) {
      const { bytes } = await ok(buildJob(template, { price: value }));
      expect(maxChroma(await decodePixels(bytes), 0, 0, 1080, 1080)).toBeLessThan(20);
    }
  });

  it('measures bold runs with the bold face: wider than the same words plain', () => {
    const ctx = measuringContext();
    const spec = richSpec({ weight: 400 });
    const plainWidth = fitRichText(
      ctx,
      [{ text: 'Summer sale', style: PLAIN_STYLE }],
      spec,
      2000,
      500,
    ).widths[0]!;
    const boldWidth = fitRichText(ctx, parseMarkup('**Summer sale**'), spec, 2000, 500).widths[0]!;
    applyFont(ctx, { ...spec, weight: 700 }, spec.size);
    expect(boldWidth).toBeCloseTo(measure(ctx, 'Summer sale', 0), 1);
    expect(boldWidth - plainWidth).toBeGreaterThan(5);
  });

  it('fits, ellipsises and pre-flights marked-up text like plain text', async () => {
    const template = format2Template(
      [textLayer({ markup: true, maxLines: 2, minSize: 40, height: 110 })],
      ['price'],
    );
    const long = Array.from({ length: 30 }, (_, i) =>
      i % 2 ? `**đậm${i}**` : `[đỏ${i}]{#E53935}`,
    ).join(' ');
    const { report } = await ok(buildJob(template, { price: `${long} 漢` }));
    expect(report.layers[0]).toMatchObject({ fittedSize: 40, truncated: true, overflow: false });
    expect(report.layers[0]!.lines).toBeLessThanOrEqual(2);
    // Markup characters are not text to draw; the CJK character no bundled font has is.
    expect(report.missingGlyphs).toEqual(['漢']);
  });

  it('draws a strikethrough across the whole text, at the font metrics, scaled with the size', async () => {
    const thickness = async (size: number, decoration: string) => {
      const template = format2Template([textLayer({ size, decoration })], ['price']);
      const pixels = await decodePixels(
        (await ok(buildJob(template, { price: '1.290.000' }))).bytes,
      );
      const ink = inkBounds(pixels)!;
      const runs = longestDarkRuns(pixels, box);
      const full = runs.filter((run) => run >= (ink.right - ink.left) * 0.95);
      return {
        rows: full.length,
        at: runs.findIndex((run) => run >= (ink.right - ink.left) * 0.95) + box.y,
        ink,
      };
    };
    // Without decoration no row is dark across the whole number: the test can fail.
    expect((await thickness(80, 'none')).rows).toBe(0);
    const big = await thickness(80, 'strikethrough');
    const small = await thickness(40, 'strikethrough');
    expect(big.rows).toBeGreaterThanOrEqual(3);
    expect(big.rows / small.rows).toBeGreaterThan(1.5);
    // Through the middle of the digits, not under them.
    expect(big.at).toBeGreaterThan(big.ink.top + 10);
    expect(big.at).toBeLessThan(big.ink.bottom - 10);
    const under = await thickness(80, 'underline');
    expect(under.rows).toBeGreaterThanOrEqual(3);
    expect(under.at).toBeGreaterThan(big.at + 20);
  });

  it('strikes through inline with ~~…~~ only the marked words', async () => {
    const template = format2Template([textLayer({ markup: true })], ['price']);
    const pixels = await decodePixels(
      (await ok(buildJob(template, { price: '~~1.290.000~~ 990.000' }))).bytes,
    );
    const ink = inkBounds(pixels)!;
    const longest = Math.max(...longestDarkRuns(pixels, box));
    expect(longest).toBeGreaterThan((ink.right - ink.left) * 0.35);
    expect(longest).toBeLessThan((ink.right - ink.left) * 0.6);
  });

  it('runs a strikethrough unbroken through a small raised currency symbol', async () => {
    const template = format2Template(
      [textLayer({ decoration: 'strikethrough', currencyScale: 0.5, currencyRaise: true })],
      ['price'],
    );
    const pixels = await decodePixels(
      (await ok(buildJob(template, { price: '29.990.000 ₫' }))).bytes,
    );
    const ink = inkBounds(pixels)!;
    expect(Math.max(...longestDarkRuns(pixels, box))).toBeGreaterThan(
      (ink.right - ink.left) * 0.95,
    );
  });

  it('draws decorations as vector shapes in a PDF', async () => {
    const template = format2Template([textLayer({ decoration: 'strikethrough' })], ['price']);
    const pdf = await ok(buildJob(template, { price: '1.290.000' }, { format: 'pdf' }));
    // No picture of the line: text is text and the stroke is a path.
    expect(poppler('pdfimages', pdf.bytes, ['-list']).trim().split('\n').length).toBe(2);
    expect(poppler('pdftotext', pdf.bytes)).toContain('1.290.000');
    const pixels = await decodePixels(rasterisePdf(pdf.bytes, 72));
    const ink = inkBounds(pixels)!;
    const runs = longestDarkRuns(pixels, {
      x: 0,
      y: 0,
      width: pixels.width,
      height: pixels.height,
    });
    expect(Math.max(...runs)).toBeGreaterThan((ink.right - ink.left) * 0.95);
  });

  it('draws a currency symbol smaller and raised to the top of the digits', async () => {
    const inkOf = async (extra: Record<string, unknown>) => {
      const template = format2Template([textLayer({ size: 100, ...extra })], ['price']);
      return inkBounds(
        await decodePixels((await ok(buildJob(template, { price: '990₫' }))).bytes),
      )!;
    };
    const full = await inkOf({});
    const small = await inkOf({ currencyScale: 0.5 });
    const raised = await inkOf({ currencyScale: 0.5, currencyRaise: true });
    // The symbol takes about half its width: the whole line is narrower.
    expect(full.right - full.left - (small.right - small.left)).toBeGreaterThan(15);
    // ₫ has a descender-free bar below: unraised, the small one ends on the baseline; raised, the
    // text's lowest ink rises (the digits' bottom is then the lowest).
    expect(raised.bottom).toBeLessThanOrEqual(small.bottom);
  });
});

describe('rich text under stress', () => {
  it('never draws outside its box, whatever the markup, size or fit', async () => {
    // A fixed pseudo-random sequence, so a failure can be replayed.
    let seed = 16;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pieces = [
      '**Tết**',
      '*vui*',
      '[đỏ]{#E53935}',
      '~~1.290.000 ₫~~',
      'trăng tròn',
      '128 GB',
      'Ự Ế Ẫ',
      '🎁',
      'xe hơi',
      'https://example.com/a/very/long/path',
      '50 %',
    ];
    const white: [number, number, number] = [255, 255, 255];
    for (let round = 0; round < 12; round++) {
      const words = Array.from(
        { length: 1 + Math.floor(next() * 40) },
        () => pieces[Math.floor(next() * pieces.length)],
      );
      const layerBox = {
        x: 150,
        y: 150,
        width: 200 + Math.floor(next() * 600),
        height: 60 + Math.floor(next() * 500),
      };
      const template = format2Template(
        [
          {
            ...textLayer({ markup: true }),
            ...layerBox,
            size: 30 + Math.floor(next() * 90),
            minSize: 12,
            fit: next() < 0.3 ? 'ellipsis' : 'shrink',
            maxLines: next() < 0.5 ? 1 + Math.floor(next() * 4) : undefined,
            wrap: next() < 0.3 ? 'greedy' : 'balanced',
            currencyScale: 0.6,
            currencyRaise: true,
            decoration: next() < 0.3 ? 'underline' : 'none',
            transform: next() < 0.3 ? 'uppercase' : 'none',
          },
        ],
        ['price'],
      );
      const result = await ok(buildJob(template, { price: words.join(' ') }));
      expect(result.report.layers[0]!.overflow).toBe(false);
      const pixels = await decodePixels(result.bytes);
      const ink = inkBounds(pixels, white);
      if (!ink) continue;
      expect(ink.left).toBeGreaterThanOrEqual(layerBox.x);
      expect(ink.top).toBeGreaterThanOrEqual(layerBox.y);
      expect(ink.right).toBeLessThan(layerBox.x + layerBox.width);
      expect(ink.bottom).toBeLessThan(layerBox.y + layerBox.height);
    }
  });
});
