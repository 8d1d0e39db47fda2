import { PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { finishPdf } from '../../main/engine/pdf-finish.js';
import { FONTS_DIR, renderJob } from '../../main/engine/render-job.js';
import { planSheet, sheetItemOf } from '../../shared/sheet-options.js';
import { Template } from '../../shared/template-format.js';
import { renderSample } from '../helpers/engine-renderer.js';
import { poppler, rasterisePdf } from '../helpers/poppler.js';
import { jobFor, layoutTemplate } from './layout/layout-fixtures.js';

/**
 * Letter-spaced text in our PDFs reads back as whole words: pdftotext (poppler) finds each word
 * of spaced capitals, turned text and N-up sheets, while the page looks exactly as Skia drew it.
 */
registerBundledFonts(FONTS_DIR);

/** The page content a PDF's Flate streams hold, inflated (font files and the like left out). */
function pageContent(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  let content = '';
  for (const match of text.matchAll(/\/Length (\d+)>> stream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    try {
      const inflated = zlib.inflateSync(pdf.subarray(start, start + Number(match[1])));
      if (inflated.includes('BT')) content += inflated.toString('latin1');
    } catch {
      // Not Flate: an uncompressed stream, which Skia only writes for what is not content.
    }
  }
  return content;
}

/** The words pdftotext reads from a PDF, in its reading order. */
const wordsOf = (pdf: Uint8Array) => poppler('pdftotext', pdf).split(/\s+/).filter(Boolean);

const spaced = (id: string, text: string, y: number, extra: Record<string, unknown> = {}) => ({
  kind: 'text',
  id,
  text,
  x: 90,
  y,
  width: 900,
  height: 120,
  size: 48,
  // A quarter of the size: well over the tenth extractors take for a word break.
  letterSpacing: 12,
  font: { family: 'Be Vietnam Pro', weight: 700 },
  colour: '#1D3B6F',
  align: 'center',
  verticalAlign: 'middle',
  ...extra,
});

describe('letter-spaced text in PDFs', () => {
  it('reads back as words in the certificate: "TRƯỜNG THCS NGUYỄN DU", not "NGU YỄN"', async () => {
    const pdf = (await renderSample('tmpl_certificate_award', { target: 'a4', format: 'pdf' }))
      .bytes;
    const text = poppler('pdftotext', pdf);
    expect(text).toContain('TRƯỜNG THCS NGUYỄN DU');
    expect(text.toLocaleLowerCase('vi')).toContain('nguyễn');
    expect(text).toContain('HIỆU TRƯỞNG');
  });

  for (const schemaVersion of [1, 2] as const) {
    it(`reads back spaced capitals, turned and wrapped text word by word (format ${schemaVersion})`, async () => {
      const template = layoutTemplate({
        schemaVersion,
        layers: [
          spaced('caps', 'Trường THCS Nguyễn Du', 40, { transform: 'uppercase' }),
          spaced('turned', 'NGUYỄN VĂN AN', 240, { rotation: 15 }),
          spaced('upright', 'XOAY DỌC', 400, { rotation: 90, x: 700, width: 500 }),
          spaced('wrapped', 'Phường Bến Nghé, Quận Một', 700, { size: 40, height: 240 }),
        ],
      });
      const result = await renderJob(jobFor(template, {}, { format: 'pdf' }));
      if (!result.ok) throw new Error(result.message);
      const words = wordsOf(result.bytes);
      const expected = 'TRƯỜNG THCS NGUYỄN DU NGUYỄN VĂN AN XOAY DỌC Phường Bến Nghé, Quận Một';
      expect([...words].sort()).toEqual(expected.split(' ').sort());
    });
  }

  it('reads back as words from every item of an N-up sheet', async () => {
    const card = Template.parse({
      schemaVersion: 2,
      id: 'tmpl_spaced_card',
      name: 'Spaced card',
      category: 'Print',
      subCategory: 'Cards',
      market: 'global',
      createdAt: '2026-11-01',
      variables: [{ name: 'name', type: 'text' }],
      layouts: {
        card: {
          width: 502,
          height: 325,
          page: { unit: 'mm', width: 85, height: 55, dpi: 150 },
          background: '#FFFFFF',
          layers: [
            spaced('name', '{{name}}', 100, { x: 20, width: 462, size: 30, letterSpacing: 6 }),
          ],
        },
      },
    });
    const planned = planSheet({ preset: 'business-cards-10' }, sheetItemOf(card.layouts.card!)!);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const names = ['NGUYỄN AN', 'TRẦN BÌNH', 'LÊ CHÂU'];
    const result = await renderJob({
      ...jobFor(card, { name: names[0]! }, { format: 'pdf' }),
      sheet: { plan: planned.plan, items: names.map((name) => ({ name })) },
    });
    if (!result.ok) throw new Error(result.message);
    expect([...wordsOf(result.bytes)].sort()).toEqual(names.join(' ').split(' ').sort());
  });

  it('keeps every glyph where Skia put it: the finished page rasterises to the same pixels', () => {
    const doc = new PDFDocument({ compressionLevel: 6 });
    const ctx = doc.beginPage(900, 300) as SKRSContext2D;
    ctx.fillStyle = '#000000';
    ctx.font = '700 36px "Be Vietnam Pro"';
    ctx.letterSpacing = '9px';
    ctx.fillText('TRƯỜNG THCS NGUYỄN DU', 20, 80);
    ctx.letterSpacing = '-1px';
    ctx.fillText('Tight Nguyễn AVAWAY', 20, 160);
    ctx.save();
    ctx.translate(300, 250);
    ctx.rotate(-0.2);
    ctx.letterSpacing = '6px';
    ctx.fillText('XOAY NGHIÊNG', -150, 0);
    ctx.restore();
    doc.endPage();
    const raw = doc.close();
    const finished = finishPdf(raw, {
      boxes: { width: 900, height: 300, trimInset: 0, bleed: 0 },
      date: '2026-01-01',
    });
    expect(pageContent(finished)).toContain('/ActualText');
    expect(rasterisePdf(finished, 144).equals(rasterisePdf(raw, 144))).toBe(true);
    expect(wordsOf(finished)).toEqual([
      ...'TRƯỜNG THCS NGUYỄN DU Tight Nguyễn AVAWAY'.split(' '),
      ...'XOAY NGHIÊNG'.split(' '),
    ]);
  });

  it('reads back turned text and text on an arc, without letter spacing, as whole words and lines', async () => {
    // Turned 15°, "Trường Nguyễn Du" read back as "Trườ / ng / Ngu / yễn / Du": each next
    // glyph sits a little higher, and extractors broke words between its letters.
    const plain = (id: string, text: string, y: number, rotation: number, height = 120) =>
      spaced(id, text, y, { letterSpacing: 0, rotation, height, size: 44 });
    const template = layoutTemplate({
      schemaVersion: 2,
      layers: [
        plain('fifteen', 'Trường Nguyễn Du', 60, 15),
        plain('forty', 'Phường Bến Nghé', 330, -40),
        plain('two-lines', 'Giấy khen học sinh giỏi năm học 2025 – 2026 Trường THCS', 640, 10, 240),
      ],
    });
    // On an arc each letter is turned by itself: read back letter by letter before.
    const seal = (id: string, text: string, path: Record<string, unknown>) => ({
      ...spaced(id, text, 200, { letterSpacing: 0, size: 40 }),
      x: 240,
      width: 600,
      height: 600,
      path: { kind: 'arc', radius: 240, sweep: 200, ...path },
    });
    const arcs = layoutTemplate({
      schemaVersion: 2,
      layers: [
        seal('top', 'Trường Nguyễn Du', {}),
        seal('bottom', 'Quận Một', { angle: 180, inside: true }),
      ],
    });
    const arcPdf = await renderJob(jobFor(arcs, {}, { format: 'pdf' }));
    if (!arcPdf.ok) throw new Error(arcPdf.message);
    const arcText = poppler('pdftotext', arcPdf.bytes);
    expect(arcText).toContain('Trường Nguyễn Du');
    expect(arcText).toContain('Quận Một');
    const result = await renderJob(jobFor(template, {}, { format: 'pdf' }));
    if (!result.ok) throw new Error(result.message);
    const text = poppler('pdftotext', result.bytes);
    expect(text).toContain('Trường Nguyễn Du');
    expect(text).toContain('Phường Bến Nghé');
    const words = text.split(/\s+/).filter(Boolean);
    for (const word of 'Giấy khen học sinh giỏi năm học 2025 – 2026 Trường THCS'.split(' '))
      expect(words, word).toContain(word);
    // Marked, not moved: the finished page draws the same pixels as Skia's own file.
    const doc = new PDFDocument({ compressionLevel: 6 });
    const ctx = doc.beginPage(600, 300) as SKRSContext2D;
    ctx.fillStyle = '#000000';
    ctx.font = '400 32px "Be Vietnam Pro"';
    ctx.translate(300, 150);
    ctx.rotate(-0.3);
    ctx.fillText('Trân trọng trao tặng', -150, 0);
    doc.endPage();
    const raw = doc.close();
    const finished = finishPdf(raw, {
      boxes: { width: 600, height: 300, trimInset: 0, bleed: 0 },
      date: '2026-01-01',
    });
    expect(pageContent(raw)).not.toContain('/ActualText');
    expect(pageContent(finished)).toContain('/ActualText');
    expect(rasterisePdf(finished, 144).equals(rasterisePdf(raw, 144))).toBe(true);
    expect(wordsOf(finished)).toEqual('Trân trọng trao tặng'.split(' '));
  });

  it('leaves text without letter spacing as Skia wrote it', () => {
    const draw = (spacing: string) => {
      const doc = new PDFDocument({ compressionLevel: 6 });
      const ctx = doc.beginPage(400, 100) as SKRSContext2D;
      ctx.font = '400 24px "Be Vietnam Pro"';
      ctx.letterSpacing = spacing;
      ctx.fillText('Trân trọng trao tặng', 10, 50);
      doc.endPage();
      return doc.close();
    };
    const finish = (pdf: Buffer) =>
      finishPdf(pdf, {
        boxes: { width: 400, height: 100, trimInset: 0, bleed: 0 },
        date: '2026-01-01',
      });
    const plain = draw('0px');
    expect(pageContent(finish(plain))).toBe(pageContent(plain));
    expect(pageContent(finish(plain))).not.toMatch(/ActualText|Tc/);
    expect(pageContent(finish(draw('4px')))).toMatch(/\/ActualText[^]* Tc/);
  });
});
