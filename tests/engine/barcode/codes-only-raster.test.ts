import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR } from '../../../main/engine/render-job.js';
import { renderTemplate, type DrawnTemplate } from '../../../main/engine/render-template.js';
import type { Box } from '../../../main/engine/barcode/barcode-placement.js';
import { readArea, type DrawnCode } from '../../../main/engine/barcode/drawn-code.js';
import type { RenderJob } from '../../../main/render/render-protocol.js';
import { Template, type Layer } from '../../../shared/template-format.js';

registerBundledFonts(FONTS_DIR);

/**
 * A PDF's codes are read from a raster of only the area around them (renderTemplate's
 * `codesOnly`): a canvas the size of that area, the drawing moved onto it by whole pixels, with
 * the layers that reach where a code is read. Every pixel a reader looks at must be the one a
 * raster of the whole page, every layer drawn, has there.
 */

const shape = (id: string, box: Record<string, unknown>): Layer =>
  ({ kind: 'shape', id, shape: 'rectangle', fill: '#C0392B', ...box }) as Layer;

/** A 3 × 2 in card at 300 dpi with a ⅛ in bleed: its trim starts 37.5 px into the sheet. */
function card(layers: Layer[]): Template {
  return Template.parse({
    schemaVersion: 2,
    id: 'tmpl_codes_only',
    name: 'Codes only',
    category: 'Test',
    subCategory: 'Test',
    market: 'global',
    createdAt: '2026-01-01',
    variables: [{ name: 'url', type: 'text' }],
    layouts: {
      card: {
        width: 900,
        height: 600,
        background: '#F4F1EA',
        page: { unit: 'in', width: 3, height: 2, dpi: 300, bleed: 0.125 },
        layers,
      },
    },
  });
}

const far = {
  kind: 'text',
  id: 'far-text',
  x: 600,
  y: 470,
  width: 280,
  height: 110,
  text: 'Nguyễn Thị Minh Khai',
  font: { family: 'Be Vietnam Pro', weight: 700 },
  size: 40,
  colour: '#1E3A5F',
} as unknown as Layer;

const CASES: Record<string, Layer[]> = {
  // Over the trim's corner: the reader's margin runs into the bleed and off the sheet.
  'a QR code at the page edge': [
    shape('band', { x: -40, y: -40, width: 980, height: 120, fill: '#1E3A5F' }),
    {
      kind: 'qr',
      id: 'edge-qr',
      x: -20,
      y: -30,
      width: 220,
      height: 220,
      value: '{{url}}',
      margin: 1,
    } as Layer,
    far,
  ],
  // Layers that reach where the codes are read only by their turn or their stroke; turned codes.
  'turned and stroked layers around turned codes': [
    {
      kind: 'qr',
      id: 'turned-qr',
      x: 120,
      y: 150,
      width: 260,
      height: 260,
      value: '{{url}}',
      rotation: 20,
    } as Layer,
    // Below the area where the codes are read; turned, its end reaches in over the barcode.
    shape('crossing', { x: 200, y: 660, width: 400, height: 24, rotation: -35 }),
    // A line right of that area (a rectangle's stroke is inset): its stroke reaches in.
    shape('stroked', {
      shape: 'line',
      x: 560,
      y: 150,
      width: 4,
      height: 200,
      stroke: { paint: '#111111', width: 60 },
    }),
    {
      kind: 'barcode',
      id: 'turned-code',
      x: 330,
      y: 420,
      width: 300,
      height: 120,
      symbology: 'code128',
      value: 'TIX-000142',
      rotation: 90,
    } as Layer,
    far,
  ],
};

function job(template: Template, options: Partial<RenderJob> = {}): RenderJob {
  return {
    template,
    assetsDir: os.tmpdir(),
    ratio: 'card',
    values: { url: 'https://events.example.org/t/0042?k=Zx9' },
    format: 'pdf',
    verifyCodes: true,
    ...options,
  };
}

/** The pixels of a box of the sheet's raster, from a canvas that holds that part of it. */
function pixelsOf(drawn: DrawnTemplate, box: Box): Buffer {
  const { x, y } = drawn.area;
  const ctx = drawn.canvas.getContext('2d');
  return Buffer.from(ctx.getImageData(box.x - x, box.y - y, box.width, box.height).data);
}

/** How many pixels differ, and by how much at most in one channel. */
function differences(a: Buffer, b: Buffer): { count: number; most: number } {
  let count = 0;
  let most = 0;
  for (let i = 0; i < a.length; i += 4) {
    let pixel = 0;
    for (let c = 0; c < 4; c++) pixel = Math.max(pixel, Math.abs(a[i + c]! - b[i + c]!));
    if (pixel > 0) count += 1;
    most = Math.max(most, pixel);
  }
  return { count, most };
}

describe('the raster around the codes of a PDF', () => {
  it.each(
    Object.keys(CASES).flatMap((name) => [
      { name, cropMarks: false },
      { name, cropMarks: true },
    ]),
  )(
    'holds the whole page’s pixels where codes are read: $name (crop marks: $cropMarks)',
    async ({ name, cropMarks }) => {
      const template = card(CASES[name]!);
      const whole = await renderTemplate(job(template, { cropMarks }), { pdfRaster: true });
      const around = await renderTemplate(job(template, { cropMarks }), { codesOnly: true });
      const { area } = around;
      // Smaller than the sheet: the far text is neither drawn nor read.
      expect(area.width * area.height).toBeLessThan(whole.canvas.width * whole.canvas.height);
      expect([around.canvas.width, around.canvas.height]).toEqual([area.width, area.height]);
      // Where each code is read (its box and the reader's margin), inside the sheet.
      const read = around.codes.map((code) => {
        const box = readArea(code);
        const x = Math.max(0, Math.floor(box.x));
        const y = Math.max(0, Math.floor(box.y));
        return {
          x: area.x + x,
          y: area.y + y,
          width: Math.min(area.width, Math.ceil(box.x + box.width)) - x,
          height: Math.min(area.height, Math.ceil(box.y + box.height)) - y,
        };
      });
      expect(read.length).toBeGreaterThan(0);
      const apart = read
        .map((box) => differences(pixelsOf(around, box), pixelsOf(whole, box)))
        .reduce((a, b) => ({ count: a.count + b.count, most: Math.max(a.most, b.most) }));
      if (name.startsWith('turned')) {
        // Turned edges are anti-aliased from coordinates moved onto the smaller canvas: a few of
        // their pixels (~70 of 250,000) come out a shade apart (up to 35 of 255). A layer left out
        // or a pixel of shift shows far more (~700 pixels, 190 apart, for the turned bar alone).
        expect(apart.most).toBeLessThanOrEqual(48);
        expect(apart.count).toBeLessThan((area.width * area.height) / 1000);
      } else {
        expect(apart.count).toBe(0);
      }
      // The codes are where the whole page has them, in the smaller canvas's pixels.
      const onSheet = (codes: DrawnCode[], at: { x: number; y: number }) =>
        codes.map((code) => ({
          ...code,
          box: [code.box.x + at.x, code.box.y + at.y, code.box.width, code.box.height].map(
            (edge) => Math.round(edge * 1e6) / 1e6,
          ),
        }));
      expect(onSheet(around.codes, area)).toEqual(onSheet(whole.codes, { x: 0, y: 0 }));
    },
  );

  it('is as large as the sheet where the reader looks over its edge', async () => {
    const around = await renderTemplate(job(card(CASES['a QR code at the page edge']!)), {
      codesOnly: true,
    });
    expect([around.area.x, around.area.y]).toEqual([0, 0]);
  });
});
