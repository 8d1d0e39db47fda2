import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Layer, Template } from '../../shared/template-format.js';
import type { ResolvedValue, TextLayerReport } from '../render/render-protocol.js';
import type { DrawnCode } from './barcode/drawn-code.js';
import type { SourceImageStore } from './source-image-cache.js';
import { ruleHolds } from './visibility-rule.js';

/** What every layer drawer gets: the canvas, the template, the values and where to report. */
export interface DrawContext {
  ctx: SKRSContext2D;
  template: Template;
  values: Record<string, ResolvedValue>;
  assetsDir: string;
  textReports: TextLayerReport[];
  missingGlyphs: Set<string>;
  /** A PDF page: images are drawn from their source pixels, not fitted to the layout's pixels. */
  vector: boolean;
  /**
   * Source images already decoded for this PDF (a sheet draws the same logo on every item): one
   * decode, and one image object, which the PDF embeds once however often it is drawn.
   */
  sourceImages?: SourceImageStore;
  /** Receives each QR code and barcode drawn, when the job verifies its codes (a raster only). */
  codes?: DrawnCode[];
  /** Codes are noted where they go and nothing is painted (placing a PDF check's raster). */
  placeOnly?: boolean;
  /** A raster of a PDF's page, its codes checked on: QR codes drawn as the PDF draws them. */
  pdfRaster?: boolean;
}

/** How a text layer came out: the size it was drawn at, its lines, and whether it was cut. */
export function reportFittedText(
  dc: DrawContext,
  layer: { id: string },
  fitted: { size: number; lines: readonly unknown[]; truncated: boolean; overflow: boolean },
): void {
  dc.textReports.push({
    id: layer.id,
    fittedSize: fitted.size,
    lines: fitted.lines.length,
    truncated: fitted.truncated,
    overflow: fitted.overflow,
  });
}

/** A text or list layer with nothing to draw still reports, at its preferred size, no lines. */
export function reportEmptyText(dc: DrawContext, layer: { id: string; size: number }): void {
  reportFittedText(dc, layer, { size: layer.size, lines: [], truncated: false, overflow: false });
}

/** DESIGN §5: hide a layer when its variable is empty, by an enum's value, or by its rules. */
export function isVisible(layer: Layer, dc: Pick<DrawContext, 'template' | 'values'>): boolean {
  return !layer.visibleWhen || ruleHolds(layer.visibleWhen, dc.values, dc.template.locale);
}
