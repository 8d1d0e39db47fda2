import type { SKRSContext2D } from '@napi-rs/canvas';
import { layoutPages } from '../../shared/layout-pages.js';
import { POINTS_PER_INCH, unitsPerInch } from '../../shared/page-sizes.js';
import type { RenderJob, TextLayerReport } from '../render/render-protocol.js';
import { finishPdf, startPdf } from './pdf-finish.js';
import { drawContext, drawLayout, layoutOf, prepareLayout } from './render-template.js';
import { sheetGeometry, type SheetGeometry } from './sheet-geometry.js';

export interface DrawnPdf {
  bytes: Buffer;
  sheet: SheetGeometry;
  layers: TextLayerReport[];
  missingGlyphs: string[];
}

/**
 * Draws a layout as a vector PDF page: text stays text in its fonts (embedded, subset), shapes
 * stay paths, images are embedded at their source resolution (only the part shown). The page is
 * the sheet (trim, bleed, crop-mark margin) in points, its layout pixels at the layout's DPI.
 */
export async function renderPdf(job: RenderJob): Promise<DrawnPdf> {
  const layout = layoutOf(job);
  const sheet = sheetGeometry(layout, job.cropMarks === true);
  const points = POINTS_PER_INCH / sheet.dpi;
  // The trim in points from the page's own size (its pixels are rounded); the rest is from mm.
  const page = layout.page;
  const trimWidth = page
    ? (page.width / unitsPerInch(page.unit)) * POINTS_PER_INCH
    : layout.width * points;
  const trimHeight = page
    ? (page.height / unitsPerInch(page.unit)) * POINTS_PER_INCH
    : layout.height * points;
  const inset = sheet.origin * points;
  const boxes = {
    width: trimWidth + 2 * inset,
    height: trimHeight + 2 * inset,
    trimInset: inset,
    bleed: sheet.bleed * points,
  };
  const doc = startPdf(job);
  // Every page, or the one the job names; reports and missing glyphs of all of them.
  const pages = job.page ? [job.page - 1] : layoutPages(layout).map((_, index) => index);
  const layers: TextLayerReport[] = [];
  const missingGlyphs = new Set<string>();
  for (const pageIndex of pages) {
    // The PDF context is the same native class as a canvas's, typed apart by the bindings.
    const ctx = doc.beginPage(boxes.width, boxes.height) as SKRSContext2D;
    const dc = drawContext(job, ctx, true);
    const prepared = await prepareLayout(dc, layout, pageIndex);
    ctx.scale(points, points);
    drawLayout(dc, prepared, sheet, false);
    doc.endPage();
    layers.push(...dc.textReports);
    for (const glyph of dc.missingGlyphs) missingGlyphs.add(glyph);
  }
  const bytes = finishPdf(doc.close(), { boxes, date: job.template.createdAt });
  return { bytes, sheet, layers, missingGlyphs: [...missingGlyphs] };
}
