import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { RenderJob, RenderSuccess } from '../../main/render/render-protocol.js';
import { Template } from '../../shared/template-format.js';
import { poppler, rasterisePdf } from '../helpers/poppler.js';

/**
 * An SVG asset in a PDF: drawn as paths (pdfimages finds no image), looking as its raster
 * rendering does; an SVG the vector path does not cover is embedded as pixels, as before.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svg-vector-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A logo of shapes: a gradient disc, a stroked rounded square, a dashed line, a polygon. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 400 200">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#E11D48"/><stop offset="1" stop-color="#2563EB"/></linearGradient></defs>
  <circle cx="100" cy="100" r="80" fill="url(#g)"/>
  <g transform="translate(200 20) rotate(10)">
    <rect x="10" y="10" width="140" height="140" rx="24" fill="#FACC15" stroke="#0F172A" stroke-width="8"/>
  </g>
  <line x1="20" y1="190" x2="380" y2="190" stroke="#0F172A" stroke-width="6" stroke-dasharray="20 10"/>
  <polygon points="300,60 340,140 260,140" fill="#16A34A" fill-opacity="0.8"/>
</svg>`;

/** The same with a word in it: text stays raster (its fonts are the rasteriser's). */
const WITH_TEXT = LOGO.replace('</svg>', '<text x="20" y="40" font-size="30">Hi</text></svg>');

fs.writeFileSync(path.join(dir, 'logo.svg'), LOGO);
fs.writeFileSync(path.join(dir, 'with-text.svg'), WITH_TEXT);

function template(asset: string): Template {
  return Template.parse({
    schemaVersion: 1,
    id: 'tmpl_svg_vector',
    name: 'SVG logo',
    category: 'Print',
    subCategory: 'Cards',
    market: 'global',
    createdAt: '2026-11-01',
    variables: [],
    sampleValues: {},
    layouts: {
      card: {
        width: 600,
        height: 400,
        page: { unit: 'mm', width: 101.6, height: 67.73, dpi: 150, bleed: 0, safe: 0 },
        background: '#FFFFFF',
        layers: [
          {
            kind: 'image',
            id: 'logo',
            source: { asset },
            x: 50,
            y: 50,
            width: 500,
            height: 300,
            fit: 'contain',
          },
        ],
      },
    },
  });
}

async function render(asset: string, format: 'pdf' | 'png'): Promise<RenderSuccess> {
  const job: RenderJob = {
    template: template(asset),
    assetsDir: dir,
    ratio: 'card',
    values: {},
    format,
  };
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Image rows of `pdfimages -list` (after its two header lines). */
function embeddedImages(pdf: Uint8Array): string[] {
  return poppler('pdfimages', pdf, ['-list'])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '');
}

describe('SVG images in a PDF', () => {
  it('draws an SVG of shapes as vector paths, looking as its raster rendering does', async () => {
    const pdf = await render('logo.svg', 'pdf');
    expect(embeddedImages(pdf.bytes)).toEqual([]);

    // pdftoppm at the layout's 150 dpi against the engine's PNG of the same layout.
    const png = await sharp((await render('logo.svg', 'png')).bytes)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const page = await sharp(rasterisePdf(pdf.bytes, 150))
      .resize(png.info.width, png.info.height)
      .removeAlpha()
      .raw()
      .toBuffer();
    let sum = 0;
    let bad = 0;
    for (let i = 0; i < page.length; i++) {
      const diff = Math.abs(page[i]! - png.data[i]!);
      sum += diff;
      if (diff > 64) bad++;
    }
    // Edges anti-alias differently; the shapes, colours and gradient agree.
    expect(sum / page.length).toBeLessThan(3);
    expect(bad / page.length).toBeLessThan(0.01);
    // And the picture is there at all: the disc's left is red, the square yellow.
    const at = (x: number, y: number) =>
      [0, 1, 2].map((c) => page[(y * png.info.width + x) * 3 + c]);
    const disc = at(Math.round(50 + 125 * 0.35), Math.round(50 + 75 + 37));
    expect(disc[0]).toBeGreaterThan(150);
    expect(disc[2]).toBeLessThan(150);
  });

  it('embeds an SVG with text as pixels, as the vector path leaves it out', async () => {
    const pdf = await render('with-text.svg', 'pdf');
    expect(embeddedImages(pdf.bytes).length).toBeGreaterThan(0);
  });
});
