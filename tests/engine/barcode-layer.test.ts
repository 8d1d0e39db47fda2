import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR, renderJob } from '../../main/engine/render-job.js';
import { decodePixels, type Pixels } from './fixtures/pixels.js';
import { jobFor, layoutTemplate } from './layout/layout-fixtures.js';
import { poppler } from '../helpers/poppler.js';

registerBundledFonts(FONTS_DIR);

const ean = () =>
  layoutTemplate({
    textVariables: ['barcode'],
    layers: [
      {
        kind: 'barcode',
        id: 'ean',
        x: 101,
        y: 100,
        width: 503,
        height: 300,
        symbology: 'ean13',
        value: '{{barcode}}',
        foreground: '#1A237E',
      },
    ],
  });

async function render(value: string, format: 'png' | 'pdf', scale = 1): Promise<Uint8Array> {
  const result = await renderJob(jobFor(ean(), { barcode: value }, { format, scale }));
  if (!result.ok) throw new Error(result.message);
  return result.bytes;
}

/** The distinct colours of a row of pixels between two columns. */
function rowColours(p: Pixels, y: number, from: number, to: number): Set<string> {
  const colours = new Set<string>();
  for (let x = from; x < to; x++) {
    const i = (y * p.width + x) * 3;
    colours.add(`${p.data[i]},${p.data[i + 1]},${p.data[i + 2]}`);
  }
  return colours;
}

/** Widths of the runs of dark pixels along a row. */
function barWidths(p: Pixels, y: number): number[] {
  const widths: number[] = [];
  let run = 0;
  for (let x = 0; x < p.width; x++) {
    const dark = p.data[(y * p.width + x) * 3]! < 128;
    if (dark) run += 1;
    else if (run > 0) {
      widths.push(run);
      run = 0;
    }
  }
  return widths;
}

describe('barcode layer', () => {
  it('draws bars on whole device pixels at any scale: two colours, widths in whole modules', async () => {
    for (const scale of [1, 1.5]) {
      const p = await decodePixels(await render('590123412345', 'png', scale));
      // 503 × scale px across 113 modules: 4 px a module at scale 1, 6 at 1.5.
      const module = Math.floor((503 * scale) / 113);
      const y = Math.round(200 * scale);
      expect(rowColours(p, y, 0, p.width)).toEqual(new Set(['255,255,255', '26,35,126']));
      const widths = barWidths(p, y);
      // 30 bars: two in each guard and two in each of the 12 digits.
      expect(widths).toHaveLength(30);
      for (const width of widths) expect(width % module).toBe(0);
    }
  });

  it('is vector paths in a PDF (no image), with its digits as text', async () => {
    const pdf = await render('590123412345', 'pdf');
    const images = poppler('pdfimages', pdf, ['-list']).trim().split('\n');
    // Only the header and its rule: no image in the page.
    expect(images).toHaveLength(2);
    expect(poppler('pdftotext', pdf).replace(/\s+/g, '')).toContain('5901234123457');
  });

  it('draws nothing for an empty value', async () => {
    const p = await decodePixels(await render('', 'png'));
    expect(rowColours(p, 200, 0, p.width)).toEqual(new Set(['255,255,255']));
  });
});
