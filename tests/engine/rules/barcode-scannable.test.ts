import { describe, expect, it } from 'vitest';
import { encodeBarcode } from '../../../main/engine/barcode/barcode-symbol.js';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR } from '../../../main/engine/render-job.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import { Template } from '../../../shared/template-format.js';
import { jobFor, layoutTemplate } from '../layout/layout-fixtures.js';

registerBundledFonts(FONTS_DIR);

const code = (symbology: string, value: string, width: number, height: number) => ({
  kind: 'barcode',
  id: 'code',
  x: 20,
  y: 20,
  width,
  height,
  symbology,
  value,
});

/** A 4 × 3 in shelf tag at 300 dpi holding one code. */
const tag = (layer: Record<string, unknown>) =>
  Template.parse({
    ...layoutTemplate({ layers: [] }),
    layouts: {
      tag: {
        width: 1200,
        height: 900,
        background: '#FFFFFF',
        page: { unit: 'in', width: 4, height: 3, dpi: 300 },
        layers: [layer],
      },
    },
  });

const violations = async (template: Template) =>
  (await checkRules(jobFor(template))).map((v) => `${v.rule} ${v.layer}`);

describe('barcode rule', () => {
  it("wants printed modules of the symbology's minimum X-dimension at the layout's DPI", async () => {
    // An EAN-13 is 113 modules with its quiet zones: 3 px (0.254 mm) in 339 px, 4 px in 452.
    const dense = await checkRules(jobFor(tag(code('ean13', '590123412345', 400, 260))));
    expect(dense.map((v) => v.rule)).toEqual(['barcode-too-dense']);
    expect(dense[0]!.message).toBe(
      '"code" prints EAN-13 modules of 0.254 mm (3 px at 300 dpi); scanners need 0.264 mm, 4 px. Make the box at least 452 px wide, or shorten the value.',
    );
    expect(await violations(tag(code('ean13', '590123412345', 452, 260)))).toEqual([]);
    // ITF-14 wants 0.495 mm: 6 px at 300 dpi.
    const itf = encodeBarcode('itf14', '1540014128876');
    if (!itf.ok || itf.symbol.shape !== 'linear') throw new Error('no ITF-14');
    const across = itf.symbol.width + 20;
    expect(await violations(tag(code('itf14', '1540014128876', across * 5, 300)))).toEqual([
      'barcode-too-dense code',
    ]);
    expect(await violations(tag(code('itf14', '1540014128876', across * 6, 320)))).toEqual([]);
  });

  it('wants 2 px a module for bars and 4 for grids on a screen, and bars a scanner can find', async () => {
    const square = (layer: Record<string, unknown>) => layoutTemplate({ layers: [layer] });
    // A 16 × 16 DataMatrix with its quiet zones is 20 modules.
    expect(await violations(square(code('datamatrix', 'Render Desk', 79, 79)))).toEqual([
      'barcode-too-dense code',
    ]);
    expect(await violations(square(code('datamatrix', 'Render Desk', 80, 80)))).toEqual([]);
    expect(await violations(square(code('code128', 'TIX-0042', 400, 40)))).toEqual([
      'barcode-too-short code',
    ]);
    expect(await violations(square(code('code128', 'TIX-0042', 400, 120)))).toEqual([]);
  });
});
