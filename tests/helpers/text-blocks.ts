import { layoutPages } from '../../shared/layout-pages.js';
import type { RenderJob } from '../../main/render/render-protocol.js';
import { acquireCanvas, releaseCanvas } from '../../main/engine/canvas-pool.js';
import {
  drawContext,
  drawLayout,
  layoutOf,
  prepareLayout,
} from '../../main/engine/render-template.js';
import { sheetGeometry } from '../../main/engine/sheet-geometry.js';

/** Where a text layer's lines sit once drawn: its column and the top and bottom of its lines. */
export interface TextBlock {
  id: string;
  page: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** One line's height at the size the text was fitted to. */
  lineHeight: number;
}

/**
 * The text blocks of every page of the job's layout, as fitting and stacks placed them: a
 * layer's lines (fitted size × line height × lines) set in its box by its vertical alignment.
 * Text that draws nothing has no block.
 */
export async function textBlocks(job: RenderJob): Promise<TextBlock[]> {
  const layout = layoutOf(job);
  const sheet = sheetGeometry(layout, false);
  const canvas = acquireCanvas(Math.ceil(sheet.width), Math.ceil(sheet.height));
  const blocks: TextBlock[] = [];
  try {
    for (let index = 0; index < layoutPages(layout).length; index += 1) {
      const ctx = canvas.getContext('2d');
      ctx.reset();
      const dc = drawContext(job, ctx, false);
      const prepared = await prepareLayout(dc, layout, index);
      drawLayout(dc, prepared, sheet, false);
      const reports = new Map(dc.textReports.map((r) => [r.id, r]));
      for (const layer of prepared.visible) {
        const report = reports.get(layer.id);
        if (layer.kind !== 'text' || layer.decorative || !report || report.lines === 0) continue;
        if (layer.rotation || layer.path) continue;
        const lineHeight = report.fittedSize * layer.lineHeight;
        const height = Math.min(layer.height, report.lines * lineHeight);
        const at = { top: 0, middle: 0.5, bottom: 1 }[layer.verticalAlign];
        const top = layer.y + (layer.height - height) * at;
        blocks.push({
          id: layer.id,
          page: index + 1,
          left: layer.x,
          right: layer.x + layer.width,
          top,
          bottom: top + height,
          lineHeight,
        });
      }
    }
  } finally {
    releaseCanvas(canvas);
  }
  return blocks;
}
