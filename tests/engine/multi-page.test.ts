import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors.js';
import { templateReferenceProblems } from '../../main/workspace/template-references.js';
import { Template } from '../../shared/template-format.js';
import { catalog, renderSample, renderer } from '../helpers/engine-renderer.js';
import { pdfBoxes, poppler } from '../helpers/poppler.js';

const BADGE = 'tmpl_name_badge';
const INCH = 72;

describe('multi-page layouts', () => {
  it('render as one PDF with every page, each at the trim and bleed of the layout', async () => {
    const pdf = await renderSample(BADGE, { target: 'badge', format: 'pdf' });
    const info = poppler('pdfinfo', pdf.bytes, ['-f', '1', '-l', '2', '-box']);
    expect(info).toMatch(/Pages:\s+2/);
    for (const page of [1, 2]) {
      const lines = info
        .split('\n')
        .filter((line) => line.startsWith(`Page    ${page} `))
        .map((line) => line.replace(/^Page\s+\d+\s+/, ''))
        .join('\n');
      const boxes = pdfBoxes(lines);
      const [x0, y0, x1, y1] = boxes.TrimBox!;
      expect(x1! - x0!, `page ${page} trim width`).toBeCloseTo(3 * INCH, 1);
      expect(y1! - y0!, `page ${page} trim height`).toBeCloseTo(4 * INCH, 1);
      expect(boxes.MediaBox![2]! - boxes.MediaBox![0]!).toBeCloseTo(3.25 * INCH, 1);
    }
    const sample = catalog.get(BADGE)!.template.sampleValues;
    const front = poppler('pdftotext', pdf.bytes, ['-f', '1', '-l', '1']);
    const back = poppler('pdftotext', pdf.bytes, ['-f', '2', '-l', '2']);
    expect(front).toContain(sample.firstName as string);
    expect(front).not.toContain('Scan to connect');
    expect(back).toContain('Scan to connect');
    expect(back).toContain(`${sample.firstName as string} ${sample.lastName as string}`);
  });

  it('render as a zip of numbered images, the same bytes as each page rendered alone', async () => {
    const zip = await renderSample(BADGE, { target: 'badge', format: 'png' });
    expect(zip.contentType).toBe('application/zip');
    const entries = new AdmZip(Buffer.from(zip.bytes)).getEntries();
    expect(entries.map((entry) => entry.entryName)).toEqual(['1.png', '2.png']);
    for (const [index, entry] of entries.entries()) {
      const alone = await renderSample(BADGE, { target: 'badge', format: 'png', page: index + 1 });
      expect(alone.contentType).toBe('image/png');
      expect(entry.getData().equals(Buffer.from(alone.bytes)), entry.entryName).toBe(true);
      const meta = await sharp(entry.getData()).metadata();
      // 3 × 4 in at 300 dpi with ⅛ in bleed a side.
      expect([meta.width, meta.height]).toEqual([975, 1275]);
    }
    const again = await renderSample(BADGE, { target: 'badge', format: 'png' });
    expect(Buffer.from(again.bytes).equals(Buffer.from(zip.bytes))).toBe(true);
  });

  it('render one page as a one-page PDF when asked, and refuse a page the layout lacks', async () => {
    const back = await renderSample(BADGE, { target: 'badge', format: 'pdf', page: 2 });
    expect(poppler('pdfinfo', back.bytes)).toMatch(/Pages:\s+1/);
    expect(poppler('pdftotext', back.bytes)).toContain('Scan to connect');
    const entry = catalog.get(BADGE)!;
    let paths: string[] = [];
    try {
      renderer.prepare({
        templateId: BADGE,
        target: 'badge',
        format: 'png',
        page: 3,
        values: entry.template.sampleValues,
      });
    } catch (error) {
      if (!isAppError(error)) throw error;
      paths = error.problems?.map((p) => `${p.path}: ${p.message}`) ?? [];
    }
    expect(paths).toEqual(['page: the badge layout has 2 pages; use a page from 1 to 2']);
  });

  it('keep layer ids unique across pages, and check placeholders on every page', () => {
    const template = catalog.get(BADGE)!.template;
    const badge = template.layouts.badge!;
    const back = badge.morePages![0]!;
    const broken = Template.parse({
      ...template,
      layouts: {
        ...template.layouts,
        badge: {
          ...badge,
          morePages: [
            {
              ...back,
              layers: [
                { ...back.layers[0]!, id: badge.layers[0]!.id },
                ...back.layers.slice(1, 2),
                { ...back.layers[2]!, kind: 'text', text: '{{nickname}}' } as never,
              ],
            },
          ],
        },
      },
    });
    expect(templateReferenceProblems(broken).map((p) => p.path)).toEqual([
      'layouts.badge.morePages[0].layers[0].id',
      'layouts.badge.morePages[0].layers[2].text',
    ]);
  });
});
