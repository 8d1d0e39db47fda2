import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import { buildJob, readCatalogTemplates } from '../../scripts/preview-template.js';
import { poppler, rasterisePdf } from '../helpers/poppler.js';
import { readCodes } from '../helpers/read-barcodes.js';

/**
 * Tickets with a tear-off stub: a dashed perforation line runs across the whole printed page
 * (bleed to bleed), and what the stub must carry is on the stub's side of it. Checked on the
 * real PDF: rasterised at 300 dpi and read back with an independent barcode reader, and its
 * text extracted by region with poppler.
 */
const catalog = readCatalogTemplates();
const DPI = 300;

async function printed(slug: string, layout: string, values?: Record<string, unknown>) {
  const entry = catalog.find((e) => e.slug === slug)!;
  const result = await renderJob({
    ...buildJob(entry, 'square', values ?? entry.template.sampleValues),
    ratio: layout,
    format: 'pdf',
  });
  if (!result.ok) throw new Error(result.message);
  const page = entry.template.layouts[layout]!.page!;
  const bleedPx = Math.round((page.bleed * DPI) / (page.unit === 'mm' ? 25.4 : 1));
  const png = rasterisePdf(result.bytes, DPI);
  const { data, info } = await sharp(png)
    .removeAlpha()
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { entry, pdf: result.bytes, png, data, info, bleedPx };
}

/** Dark runs along a row (or a column) of a greyscale raster: a dashed line has many. */
function darkRuns(line: (i: number) => number, length: number): number {
  let runs = 0;
  let dark = false;
  for (let i = 0; i < length; i++) {
    const now = line(i) < 160;
    if (now && !dark) runs++;
    dark = now;
  }
  return runs;
}

/** The text of a region of page 1, in PDF points from the page's top left. */
function textIn(pdf: Uint8Array, box: { x: number; y: number; width: number; height: number }) {
  const pt = (px: number) => String(Math.round((px * 72) / DPI));
  return poppler('pdftotext', pdf, [
    '-f',
    '1',
    '-l',
    '1',
    '-r',
    '72',
    '-x',
    pt(box.x),
    '-y',
    pt(box.y),
    '-W',
    pt(box.width),
    '-H',
    pt(box.height),
  ]);
}

describe('tear-off stubs', () => {
  it('the event ticket tears off a stub below a bleed-to-bleed perforation, with the ticket number as Code 128 and the seat', async () => {
    const { entry, pdf, png, data, info, bleedPx } = await printed('event-ticket', 'ticket');
    const perforation = entry.template.layouts.ticket!.layers.find((l) => l.id === 'perforation')!;
    const y = bleedPx + Math.round(perforation.y + perforation.height / 2);
    // 16 px dashes with 12 px gaps across 70 mm plus the bleed: some 30 dashes.
    expect(darkRuns((x) => data[y * info.width + x]!, info.width)).toBeGreaterThan(25);
    // The dashes start in the bleed, so the tear line reaches both trim edges.
    expect(data[y * info.width + 2]!).toBeLessThan(160);
    const stub = await sharp(png)
      .extract({ left: 0, top: y + 4, width: info.width, height: info.height - y - 4 })
      .png()
      .toBuffer();
    const kept = await sharp(png)
      .extract({ left: 0, top: 0, width: info.width, height: y - 4 })
      .png()
      .toBuffer();
    const ticketId = String(entry.template.sampleValues.ticketId);
    expect((await readCodes(stub, ['Code128'])).map((c) => c.text)).toEqual([ticketId]);
    expect(await readCodes(kept, ['Code128'])).toEqual([]);
    // The check-in QR stays on the part the attendee keeps.
    expect((await readCodes(kept, ['QRCode'])).map((c) => c.text)).toEqual([
      String(entry.template.sampleValues.checkInUrl),
    ]);
    const stubText = textIn(pdf, {
      x: 0,
      y: y + 4,
      width: info.width,
      height: info.height - y - 4,
    });
    expect(stubText).toContain(String(entry.template.sampleValues.seat));
  });
});
