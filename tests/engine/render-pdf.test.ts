import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { catalog, renderSample } from '../helpers/engine-renderer.js';
import { pdfBoxes, poppler, rasterisePdf } from '../helpers/poppler.js';

const CERTIFICATE = 'tmpl_certificate_award';
const MM = 72 / 25.4;

const certificatePdf = (extra: { cropMarks?: boolean; quality?: number } = {}) =>
  renderSample(CERTIFICATE, { target: 'a4', format: 'pdf', ...extra });

describe('PDF output', () => {
  it('is an A4 landscape page in points, with the TrimBox at the trim and the BleedBox 3 mm out', async () => {
    const result = await certificatePdf();
    expect(result.contentType).toBe('application/pdf');
    const boxes = pdfBoxes(poppler('pdfinfo', result.bytes, ['-box']));
    const [tx0, ty0, tx1, ty1] = boxes.TrimBox!;
    expect(tx1! - tx0!).toBeCloseTo(297 * MM, 1);
    expect(ty1! - ty0!).toBeCloseTo(210 * MM, 1);
    const [bx0, by0, bx1, by1] = boxes.BleedBox!;
    expect(bx1! - bx0!).toBeCloseTo(303 * MM, 1);
    expect(by1! - by0!).toBeCloseTo(216 * MM, 1);
    expect(tx0! - bx0!).toBeCloseTo(3 * MM, 1);
    expect(boxes.MediaBox).toEqual(boxes.BleedBox);
  });

  it('embeds every font as a subset, and pdftotext finds the text of the row', async () => {
    const result = await certificatePdf();
    const fonts = poppler('pdffonts', result.bytes)
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '');
    expect(fonts.length).toBeGreaterThanOrEqual(3);
    for (const line of fonts) {
      // name type encoding emb sub uni: emb and sub are "yes" for every font.
      expect(line, line).toMatch(/\+\S+\s.*\syes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
    }
    const text = poppler('pdftotext', result.bytes);
    const sample = catalog.get(CERTIFICATE)!.template.sampleValues;
    expect(text).toContain(sample.recipient as string);
    expect(text).toContain(sample.signerName as string);
    expect(text).toContain('GIẤY KHEN');
  });

  it('embeds images at their source resolution, not at the pixels of their box', async () => {
    const result = await certificatePdf();
    const listed = poppler('pdfimages', result.bytes, ['-list']);
    const seal = await sharp('templates/catalog/certificate-award/seal.png').metadata();
    const images = [...listed.matchAll(/^\s*1\s+\d+\s+image\s+(\d+)\s+(\d+)/gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    // The seal's box is 153 × 192 layout pixels; the source is 320 × 400.
    expect(images).toContainEqual([seal.width, seal.height]);
  });

  it('is the same bytes for the same input, with fixed dates and an ID from its content', async () => {
    const a = Buffer.from((await certificatePdf()).bytes);
    const b = Buffer.from((await certificatePdf()).bytes);
    expect(a.equals(b)).toBe(true);
    const info = poppler('pdfinfo', a);
    expect(info).toMatch(/CreationDate:\s+\w{3} Nov\s+5 00:00:00 2025 UTC/);
    expect(a.toString('latin1')).toMatch(/\/ID \[<[0-9A-F]{32}> <[0-9A-F]{32}>\]/);
    const other = Buffer.from(
      (
        await renderSample(CERTIFICATE, {
          target: 'a4',
          format: 'pdf',
          values: {
            ...catalog.get(CERTIFICATE)!.template.sampleValues,
            recipient: 'Ông Phạm Minh',
          },
        })
      ).bytes,
    );
    expect(other.equals(a)).toBe(false);
  });

  it('rasterised by pdftoppm, matches the PNG render of the same layout', async () => {
    const pdf = await certificatePdf();
    const png = await renderSample(CERTIFICATE, { target: 'a4', format: 'png' });
    const fromPdf = await sharp(rasterisePdf(pdf.bytes, 150)).removeAlpha().raw().toBuffer({
      resolveWithObject: true,
    });
    const fromPng = await sharp(Buffer.from(png.bytes))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(fromPdf.info.width - fromPng.info.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(fromPdf.info.height - fromPng.info.height)).toBeLessThanOrEqual(1);
    const width = Math.min(fromPdf.info.width, fromPng.info.width);
    const height = Math.min(fromPdf.info.height, fromPng.info.height);
    let sum = 0;
    let bad = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < 3; c++) {
          const d = Math.abs(
            fromPdf.data[(y * fromPdf.info.width + x) * 3 + c]! -
              fromPng.data[(y * fromPng.info.width + x) * 3 + c]!,
          );
          sum += d;
          if (d > 64) bad++;
        }
      }
    }
    // Anti-aliasing differs between Skia and poppler along edges; nothing else may.
    expect(sum / (width * height * 3)).toBeLessThan(2);
    expect(bad / (width * height * 3)).toBeLessThan(0.01);
  });

  it('draws crop marks 3 mm outside the trim, 5 mm long, on a page grown to hold them', async () => {
    const pdf = await certificatePdf({ cropMarks: true });
    const boxes = pdfBoxes(poppler('pdfinfo', pdf.bytes, ['-box']));
    const [mx0, , mx1, my1] = boxes.MediaBox!;
    const [tx0, , tx1, ty1] = boxes.TrimBox!;
    // Trim inset = offset (3 mm, the bleed is 3 mm too) + 5 mm mark + 1 mm slug.
    expect(tx0! - mx0!).toBeCloseTo(9 * MM, 1);
    expect(mx1! - tx1!).toBeCloseTo(9 * MM, 1);
    const dpi = 300;
    const page = await sharp(rasterisePdf(pdf.bytes, dpi, ['-gray']))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (mm: number) => (mm / 25.4) * dpi;
    const dark = (x: number, y: number) => page.data[y * page.info.width + x]! < 128;
    const trimLeft = px(9);
    const trimTop = ((my1! - ty1!) / 72) * dpi;
    // The top-left horizontal mark lies on the trim's top edge and runs from 1 mm to 6 mm from the
    // page's left edge: 8 mm to 3 mm outside the trim, so it ends where the 3 mm bleed begins.
    const row = Math.round(trimTop);
    const darkColumns: number[] = [];
    for (let x = 0; x < Math.round(trimLeft); x++) {
      if (dark(x, row) || dark(x, row - 1) || dark(x, row + 1)) darkColumns.push(x);
    }
    expect(darkColumns.length).toBeGreaterThan(0);
    expect(Math.min(...darkColumns)).toBeCloseTo(px(1), -0.5);
    expect(Math.max(...darkColumns)).toBeCloseTo(px(6), -0.5);
    // The vertical mark above the top-left corner, on the trim's left edge.
    const column = Math.round(trimLeft);
    const darkRows: number[] = [];
    for (let y = 0; y < Math.round(trimTop); y++) {
      if (dark(column, y) || dark(column - 1, y) || dark(column + 1, y)) darkRows.push(y);
    }
    expect(Math.min(...darkRows)).toBeCloseTo(px(1), -0.5);
    expect(Math.max(...darkRows)).toBeCloseTo(px(6), -0.5);
  });

  it('makes a pixel layout a page at 96 px an inch: a 1080 px square is 810 pt', async () => {
    const pdf = await renderSample(CERTIFICATE, { target: 'square', format: 'pdf' });
    const info = poppler('pdfinfo', pdf.bytes);
    expect(info).toMatch(/Page size:\s+810 x 810 pts/);
  });
});
