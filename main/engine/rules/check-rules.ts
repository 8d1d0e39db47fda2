import { layoutPages } from '../../../shared/layout-pages.js';
import type { RenderJob, TextLayerReport } from '../../render/render-protocol.js';
import { acquireCanvas, releaseCanvas } from '../canvas-pool.js';
import { drawContext, drawLayout, layoutOf, prepareLayout } from '../render-template.js';
import { sheetGeometry } from '../sheet-geometry.js';
import { barcodeScannable } from './barcode-scannable.js';
import { capsLeading } from './caps-leading.js';
import { criticalCut } from './critical-cut.js';
import { minTextSize } from './min-text-size.js';
import { printBleed } from './print-bleed.js';
import { qrScannable } from './qr-scannable.js';
import type { Rule, RuleViolation } from './rule-types.js';
import { storySafeZone } from './story-safe-zone.js';
import { subjectInCrop } from './subject-in-crop.js';

export const RULES: readonly Rule[] = [
  minTextSize,
  storySafeZone,
  qrScannable,
  barcodeScannable,
  capsLeading,
  subjectInCrop,
  criticalCut,
  printBleed,
];

/**
 * Draws every page of the job's layout (or the one it names) as a render would, and checks the
 * layers as fitting and stacks placed them against the rules. The drawing is thrown away.
 */
export async function checkRules(job: RenderJob): Promise<RuleViolation[]> {
  return (await measureWithRules(job)).violations;
}

/**
 * The rules' verdict with what the drawing reported (text layers, missing glyphs): a pre-flight
 * gets both from one drawing of each page.
 */
export async function measureWithRules(job: RenderJob): Promise<{
  violations: RuleViolation[];
  layers: TextLayerReport[];
  missingGlyphs: string[];
}> {
  const layout = layoutOf(job);
  const sheet = sheetGeometry(layout, false);
  const canvas = acquireCanvas(Math.ceil(sheet.width), Math.ceil(sheet.height));
  const violations: RuleViolation[] = [];
  const layers: TextLayerReport[] = [];
  const missingGlyphs = new Set<string>();
  try {
    const pages = job.page ? [job.page - 1] : layoutPages(layout).map((_, index) => index);
    for (const pageIndex of pages) {
      const ctx = canvas.getContext('2d');
      ctx.reset();
      const dc = drawContext(job, ctx, false);
      const prepared = await prepareLayout(dc, layout, pageIndex);
      drawLayout(dc, prepared, sheet, false);
      const reports = new Map<string, TextLayerReport>(dc.textReports.map((r) => [r.id, r]));
      layers.push(...dc.textReports);
      for (const glyph of dc.missingGlyphs) missingGlyphs.add(glyph);
      for (const rule of RULES) {
        violations.push(
          ...rule({
            ratio: job.ratio,
            width: layout.width,
            height: layout.height,
            print: layout.page,
            page: pageIndex + 1,
            layers: prepared.visible,
            reports,
            images: prepared.images,
            dc,
          }),
        );
      }
    }
  } finally {
    releaseCanvas(canvas);
  }
  return { violations, layers, missingGlyphs: [...missingGlyphs] };
}
