import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { encodeBarcode, type BarcodeSymbol } from '../../../main/engine/barcode/barcode-symbol.js';
import { expectedReading, READER_FORMATS } from '../../../main/engine/barcode/barcode-reading.js';
import type { DrawnSymbology } from '../../../main/engine/barcode/barcode-symbologies.js';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR, renderJob } from '../../../main/engine/render-job.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import type { RenderJob } from '../../../main/render/render-protocol.js';
import { Template, type BarcodeSymbology } from '../../../shared/template-format.js';
import { BARCODE_SYMBOLOGIES } from '../../../shared/barcode-symbologies.js';
import { rasterisePdf } from '../../helpers/poppler.js';
import { readCodes } from '../../helpers/read-barcodes.js';

registerBundledFonts(FONTS_DIR);

const DPI = 300;
const MARGIN = 60;

/**
 * Values per symbology; the EAN/UPC/ITF-14 ones without their check digit, which is added. A
 * `gtin` is drawn as EAN-8, UPC-A or EAN-13 by its length: one value of each, and a GTIN-14
 * padding an EAN-13.
 */
const VALUES: Record<BarcodeSymbology, string | string[]> = {
  gtin: ['96385074', '03600029145', '893604500512', '08936045005125'],
  ean13: '893604500512',
  ean8: '9638507',
  upca: '03600029145',
  upce: '0123456',
  code128: 'TIX-000142 Hall B',
  'gs1-128': '(01)09501101530003(17)270630(10)LOT42',
  code39: 'RD-2027/42',
  itf14: '1540014128876',
  datamatrix: 'Nguyễn Thị Minh Khai · badge 0042',
  'gs1-datamatrix': '(01)09501101530003(17)270630(21)SN0042',
  pdf417: 'TICKET|2027-06-30|ROW F|SEAT 12|Trần Văn An',
  azteccode: 'https://events.example.org/t/0042?k=Zx9',
};

/** The box a code fills at `module` pixels a module: bars a third as high as wide, grids exact. */
function boxFor(symbol: BarcodeSymbol, module: number): { width: number; height: number } {
  const { quiet } = symbol.spec;
  if (symbol.shape === 'linear') {
    const width = module * (quiet.left + symbol.width + quiet.right);
    return { width, height: Math.round(width / 3) };
  }
  return {
    width: module * (symbol.columns + quiet.left + quiet.right),
    height: module * (symbol.rows * symbol.rowHeight + quiet.left + quiet.right),
  };
}

/** A print layout at 300 dpi just larger than the code, which is its one layer. */
function labelJob(
  symbology: BarcodeSymbology,
  value: string,
  module: number,
  format: 'png' | 'pdf',
): RenderJob {
  const encoded = encodeBarcode(symbology, value);
  if (!encoded.ok) throw new Error(encoded.reason);
  const box = boxFor(encoded.symbol, module);
  const width = box.width + 2 * MARGIN;
  const height = box.height + 2 * MARGIN;
  const template = Template.parse({
    schemaVersion: 2,
    id: 'tmpl_barcode_label',
    name: 'Barcode label',
    category: 'Test',
    subCategory: 'Test',
    market: 'global',
    createdAt: '2026-01-01',
    variables: [{ name: 'barcode', type: 'text' }],
    layouts: {
      label: {
        width,
        height,
        background: '#FFFFFF',
        page: { unit: 'in', width: width / DPI, height: height / DPI, dpi: DPI },
        layers: [
          {
            kind: 'barcode',
            id: 'code',
            x: MARGIN,
            y: MARGIN,
            ...box,
            symbology,
            value: '{{barcode}}',
          },
        ],
      },
    },
  });
  return {
    template,
    assetsDir: os.tmpdir(),
    ratio: 'label',
    values: { barcode: value },
    format,
  };
}

/** The symbology's smallest module the print rule accepts at 300 dpi, and twice that. */
function moduleSizes(symbology: BarcodeSymbology, value: string): number[] {
  const encoded = encodeBarcode(symbology, value);
  if (!encoded.ok) throw new Error(encoded.reason);
  const smallest = Math.ceil((encoded.symbol.spec.minModuleMm * DPI) / 25.4 - 1e-9);
  return [smallest, 2 * smallest];
}

/** The texts the reader finds in the render: a PDF from a raster at its print DPI. */
async function decoded(drawn: DrawnSymbology, job: RenderJob): Promise<string[]> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  const image = job.format === 'pdf' ? rasterisePdf(result.bytes, DPI) : result.bytes;
  return (await readCodes(image, [READER_FORMATS[drawn]])).map((code) => code.text);
}

describe('barcode round trip', () => {
  const cases = BARCODE_SYMBOLOGIES.flatMap((symbology) =>
    [VALUES[symbology]]
      .flat()
      .flatMap((value) =>
        moduleSizes(symbology, value).map((module) => ({ symbology, value, module })),
      ),
  );

  it.each(cases)(
    '$symbology $value at $module px a module reads back as its value from the PNG and the PDF',
    async ({ symbology, value, module }) => {
      const encoded = encodeBarcode(symbology, value);
      if (!encoded.ok) throw new Error(encoded.reason);
      const { input } = encoded.symbol;
      const expected = expectedReading(input);
      for (const format of ['png', 'pdf'] as const) {
        const job = labelJob(symbology, value, module, format);
        expect(await decoded(input.symbology, job), format).toEqual([expected]);
      }
      // The sizes are ones the print rule accepts: the test draws codes as a template should.
      expect(await checkRules(labelJob(symbology, value, module, 'png'))).toEqual([]);
    },
  );

  it('draws a gtin as the EAN-8, UPC-A or EAN-13 its length picks, with its check digit', () => {
    const drawn = [VALUES.gtin].flat().map((value) => {
      const encoded = encodeBarcode('gtin', value);
      return encoded.ok ? [encoded.symbol.input.symbology, encoded.symbol.input.value] : [];
    });
    expect(drawn).toEqual([
      ['ean8', '96385074'],
      ['upca', '036000291452'],
      ['ean13', '8936045005125'],
      ['ean13', '8936045005125'],
    ]);
  });
});
