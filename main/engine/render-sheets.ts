import type { SKRSContext2D } from '@napi-rs/canvas';
import {
  partSheets,
  sheetMarks,
  slotBleed,
  slotBox,
  type SheetPlan,
} from '../../shared/sheet-plan.js';
import type { RenderJob, ResolvedValue } from '../render/render-protocol.js';
import { finishPdf, startPdf } from './pdf-finish.js';
import { drawContext, drawLayout, layoutOf, prepareLayout } from './render-template.js';
import { sheetGeometry } from './sheet-geometry.js';
import { SourceImageCache } from './source-image-cache.js';

const POINTS_PER_MM = 72 / 25.4;
/** Marks as on a single page: 0.25 pt hairlines in plain black. */
const MARK_WIDTH_PT = 0.25;

export interface DrawnSheets {
  bytes: Buffer;
  /** PDF pages written: sheets, times two with duplex backs. */
  pages: number;
}

/**
 * Draws rows N-up on sheets as one vector PDF: every item is the row's layout drawn straight into
 * the sheet's page (text stays text, images are embedded once per source however many items
 * show them), clipped to its trim and the bleed the neighbours leave room for. With duplex, each
 * front page is followed by its back: page 2 of every row at its mirrored place.
 */
export async function renderSheets(
  job: RenderJob & { sheet: { plan: SheetPlan; items: Record<string, ResolvedValue>[] } },
): Promise<DrawnSheets> {
  const { plan, items } = job.sheet;
  const layout = layoutOf(job);
  const geometry = sheetGeometry(layout, false);
  // Layout pixels to points, from the trim's own size (the layout's pixels are rounded).
  const scaleX = (plan.item.width * POINTS_PER_MM) / layout.width;
  const scaleY = (plan.item.height * POINTS_PER_MM) / layout.height;
  const width = plan.width * POINTS_PER_MM;
  const height = plan.height * POINTS_PER_MM;
  const doc = startPdf(job);
  const sourceImages = new SourceImageCache();
  const sides: ('front' | 'back')[] = plan.duplex === 'none' ? ['front'] : ['front', 'back'];
  const frontPage = (job.page ?? 1) - 1;
  let pages = 0;
  for (const slots of partSheets(plan, items.length)) {
    const onSheet = slots.map((item) => items[item]!);
    for (const side of sides) {
      const ctx = doc.beginPage(width, height) as SKRSContext2D;
      for (const [slot, values] of onSheet.entries()) {
        const box = slotBox(plan, slot, side);
        const dc = { ...drawContext({ ...job, values }, ctx, true), sourceImages };
        const prepared = await prepareLayout(dc, layout, side === 'back' ? 1 : frontPage);
        ctx.save();
        ctx.translate(box.x * POINTS_PER_MM, box.y * POINTS_PER_MM);
        ctx.scale(scaleX, scaleY);
        // The bleed each side has room for: to the neighbour, or out to the sheet's margin.
        const bleed = slotBleed(plan, slot, side);
        const x0 = (-bleed.left * POINTS_PER_MM) / scaleX;
        const y0 = (-bleed.top * POINTS_PER_MM) / scaleY;
        const x1 = layout.width + (bleed.right * POINTS_PER_MM) / scaleX;
        const y1 = layout.height + (bleed.bottom * POINTS_PER_MM) / scaleY;
        ctx.beginPath();
        ctx.rect(x0, y0, x1 - x0, y1 - y0);
        ctx.clip();
        // drawLayout puts the trim at the geometry's origin; the item's 0,0 is the trim here.
        ctx.translate(-geometry.origin, -geometry.origin);
        drawLayout(dc, prepared, geometry, false);
        ctx.restore();
      }
      if (side === 'front') drawMarks(ctx, plan, onSheet.length);
      doc.endPage();
      pages += 1;
    }
  }
  const bytes = finishPdf(doc.close(), {
    boxes: { width, height, trimInset: 0, bleed: 0 },
    date: job.template.createdAt,
  });
  return { bytes, pages };
}

function drawMarks(ctx: SKRSContext2D, plan: SheetPlan, count: number): void {
  const marks = sheetMarks(plan, count);
  if (marks.length === 0) return;
  ctx.save();
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = MARK_WIDTH_PT;
  ctx.setLineDash([]);
  ctx.beginPath();
  for (const mark of marks) {
    ctx.moveTo(mark.x1 * POINTS_PER_MM, mark.y1 * POINTS_PER_MM);
    ctx.lineTo(mark.x2 * POINTS_PER_MM, mark.y2 * POINTS_PER_MM);
  }
  ctx.stroke();
  ctx.restore();
}
