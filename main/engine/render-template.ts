import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { layoutPages } from '../../shared/layout-pages.js';
import { MAX_CANVAS_SIDE } from '../../shared/template-limits.js';
import type { Layout, Paint } from '../../shared/template-format.js';
import type { RenderJob, TextLayerReport } from '../render/render-protocol.js';
import type { Box } from './barcode/barcode-placement.js';
import { layersReaching, type Bounds } from './barcode/code-surroundings.js';
import { readArea, type DrawnCode } from './barcode/drawn-code.js';
import { acquireCanvas, releaseCanvas } from './canvas-pool.js';
import { drawCropMarks } from './crop-marks.js';
import type { DrawContext } from './draw-context.js';
import { drawBarcodeLayer } from './layers/barcode-layer.js';
import { drawImageLayer, prepareImageLayer, type PreparedImage } from './layers/image-layer.js';
import { drawListLayer } from './layers/list-layer.js';
import { drawQrLayer } from './layers/qr-layer.js';
import { loadQrEncoder } from './qr-encoder.js';
import { drawShapeLayer } from './layers/shape-layer.js';
import { drawTextLayer } from './layers/text-layer.js';
import { resolvePaint } from './paint.js';
import { annotateLink, layerLinkHref } from './pdf-links.js';
import { resolveLayers } from './resolve-layers.js';
import type { DrawnLayer } from './stack-layout.js';
import { sheetGeometry, sheetPixelSize, type SheetGeometry } from './sheet-geometry.js';

export interface DrawnTemplate {
  canvas: Canvas;
  layout: Layout;
  sheet: SheetGeometry;
  layers: TextLayerReport[];
  missingGlyphs: string[];
  /** The codes drawn, where they are and what they hold, when the job verifies its codes. */
  codes: DrawnCode[];
  /**
   * The page's visible layers as drawn (a stack's children where it laid them out): where each
   * was drawn, for the reports that ask (render-job.ts turns them into boxes only then).
   */
  drawnLayers: readonly DrawnLayer[];
  /**
   * The part of the sheet's raster the canvas holds, in its pixels (the canvas's 0,0 at x, y):
   * the whole sheet, or with `codesOnly` the area around the codes.
   */
  area: Box;
}

/** One page of a layout ready to draw: its background, visible layers and their images. */
export interface PreparedLayout {
  layout: Layout;
  background: Paint;
  /** Visible layers as drawn: stacks laid out into their children, fit groups sized. */
  visible: DrawnLayer[];
  images: Map<string, PreparedImage | null>;
}

export function layoutOf(job: RenderJob): Layout {
  const layout = job.template.layouts[job.ratio];
  if (!layout) throw new Error(`The template has no ${job.ratio} layout.`);
  return layout;
}

export function drawContext(job: RenderJob, ctx: SKRSContext2D, vector: boolean): DrawContext {
  return {
    ctx,
    template: job.template,
    values: job.values,
    assetsDir: job.assetsDir,
    textReports: [],
    missingGlyphs: new Set(),
    vector,
  };
}

/**
 * Page `pageIndex` (0 = the layout's own layers) with every image decoded first (in parallel), so
 * drawing runs in order without waiting mid-way.
 */
export async function prepareLayout(
  dc: DrawContext,
  layout: Layout,
  pageIndex = 0,
  select: (layers: DrawnLayer[]) => DrawnLayer[] = (layers) => layers,
): Promise<PreparedLayout> {
  const page = layoutPages(layout)[pageIndex];
  if (!page) throw new Error(`The layout has no page ${pageIndex + 1}.`);
  // Drawing and the rules that follow a prepared page need the encoder synchronously.
  if (page.layers.some((layer) => layer.kind === 'qr')) await loadQrEncoder();
  const visible = select(resolveLayers(dc, page.layers));
  const images = new Map<string, PreparedImage | null>();
  await Promise.all(
    visible.map(async (layer) => {
      if (layer.kind === 'image') images.set(layer.id, await prepareImageLayer(dc, layer));
    }),
  );
  return { layout, background: page.background, visible, images };
}

/**
 * Draws a prepared layout on a sheet whose 0,0 is the context's origin: white paper (unless
 * transparent), the background over trim and bleed, the layers in trim coordinates, crop marks.
 */
export function drawLayout(
  dc: DrawContext,
  prepared: PreparedLayout,
  sheet: SheetGeometry,
  transparent: boolean,
): void {
  const { ctx, values } = dc;
  const { layout } = prepared;
  if (!transparent && !dc.vector) {
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(0, 0, sheet.width, sheet.height);
  }
  const moved = sheet.origin !== 0;
  if (moved) {
    ctx.save();
    ctx.translate(sheet.origin, sheet.origin);
  }
  if (!transparent) {
    const bleedBox = {
      x: -sheet.bleed,
      y: -sheet.bleed,
      width: layout.width + 2 * sheet.bleed,
      height: layout.height + 2 * sheet.bleed,
    };
    const background = resolvePaint(ctx, prepared.background, bleedBox, values);
    if (background) {
      ctx.fillStyle = background;
      ctx.fillRect(bleedBox.x, bleedBox.y, bleedBox.width, bleedBox.height);
    }
  }
  for (const layer of prepared.visible) drawPlacedLayer(dc, layer, prepared.images);
  if (moved) ctx.restore();
  drawCropMarks(ctx, sheet);
}

/**
 * Draws one layout of a template with resolved values onto a canvas the size of its sheet at the
 * job's scale, taken from this thread's canvas pool: the caller may hand it back with
 * `releaseCanvas` once encoded. For reading the codes of a PDF's page: `pdfRaster` draws QR codes
 * as the PDF does; `codesOnly` draws only where the page's codes are read, with the layers that
 * reach there (and as a raster of the PDF).
 */
export async function renderTemplate(
  job: RenderJob,
  options: { codesOnly?: boolean; pdfRaster?: boolean } = {},
): Promise<DrawnTemplate> {
  const layout = layoutOf(job);
  const sheet = sheetGeometry(layout, job.cropMarks === true);
  const scale = job.scale ?? 1;
  const size = sheetPixelSize(sheet, scale);
  if (size.width > MAX_CANVAS_SIDE || size.height > MAX_CANVAS_SIDE) {
    throw new Error(
      `${size.width} × ${size.height} px is over the ${MAX_CANVAS_SIDE} px limit; use a smaller scale`,
    );
  }
  if (options.codesOnly) return renderCodesOnly(job, layout, sheet, scale);
  const canvas = acquireCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d');
  const dc = drawContext(job, ctx, false);
  if (job.verifyCodes) dc.codes = [];
  if (options.pdfRaster) dc.pdfRaster = true;
  const prepared = await prepareLayout(dc, layout, (job.page ?? 1) - 1);
  if (scale !== 1) ctx.scale(scale, scale);
  drawLayout(dc, prepared, sheet, job.transparent === true);
  return drawnOn(canvas, dc, layout, sheet, { x: 0, y: 0, ...size }, prepared.visible);
}

/** Text is measured (for stacks and fit groups), and codes placed, before the canvas is known. */
let measuringCanvas: Canvas | undefined;

/**
 * The page's codes and the layers that can reach them, drawn on a canvas only the size of the
 * pixels the reader looks at (readArea, around each code as it is placed): the rest of the sheet
 * is neither allocated, cleared, painted nor read back. The drawing is moved by whole pixels, so
 * every pixel there is the one a whole sheet has, and the codes are noted in the canvas's pixels.
 */
async function renderCodesOnly(
  job: RenderJob,
  layout: Layout,
  sheet: SheetGeometry,
  scale: number,
): Promise<DrawnTemplate> {
  measuringCanvas ??= createCanvas(1, 1);
  const dc = drawContext(job, measuringCanvas.getContext('2d'), false);
  let placed: DrawnCode[] = [];
  const prepared = await prepareLayout(dc, layout, (job.page ?? 1) - 1, (layers) => {
    placed = placeCodes(dc, layers, sheet, scale);
    // Each code's own read area, in layout pixels: a layer between two codes that reaches
    // neither is not drawn (its pixels on the canvas are never read).
    const areas = placed.map((code) => {
      const read = readArea(code);
      return {
        left: read.x / scale - sheet.origin,
        top: read.y / scale - sheet.origin,
        right: (read.x + read.width) / scale - sheet.origin,
        bottom: (read.y + read.height) / scale - sheet.origin,
      };
    });
    return layersReaching(layers, areas);
  });
  const read = readBounds(placed);
  const area = read ? pixelArea(read, sheet, scale) : { x: 0, y: 0, width: 1, height: 1 };
  const canvas = acquireCanvas(area.width, area.height);
  const ctx = canvas.getContext('2d');
  dc.ctx = ctx;
  dc.codes = [];
  dc.pdfRaster = true;
  ctx.translate(-area.x, -area.y);
  if (scale !== 1) ctx.scale(scale, scale);
  drawLayout(dc, prepared, sheet, job.transparent === true);
  if (!samePlaces(dc.codes, placed, area)) {
    // Only the layers around where the codes were placed were drawn: a code drawn elsewhere
    // would be read among missing layers. Not seen; then the whole page, as a PNG of it.
    releaseCanvas(canvas);
    return renderTemplate(job, { pdfRaster: true });
  }
  return drawnOn(canvas, dc, layout, sheet, area, prepared.visible);
}

/** What a drawing left on its canvas: the reports its draw context gathered. */
function drawnOn(
  canvas: Canvas,
  dc: DrawContext,
  layout: Layout,
  sheet: SheetGeometry,
  area: Box,
  visible: readonly DrawnLayer[],
): DrawnTemplate {
  return {
    canvas,
    layout,
    sheet,
    drawnLayers: visible,
    layers: dc.textReports,
    missingGlyphs: [...dc.missingGlyphs],
    codes: dc.codes ?? [],
    area,
  };
}

/** Whether the codes drawn on a canvas at `area` are those placed on the sheet, where placed. */
function samePlaces(drawn: readonly DrawnCode[], placed: readonly DrawnCode[], area: Box): boolean {
  const near = (a: number, b: number) => Math.abs(a - b) < 0.01;
  return (
    drawn.length === placed.length &&
    drawn.every((code, i) => {
      const place = placed[i];
      return (
        place !== undefined &&
        code.layerId === place.layerId &&
        near(code.box.x + area.x, place.box.x) &&
        near(code.box.y + area.y, place.box.y) &&
        near(code.box.width, place.box.width) &&
        near(code.box.height, place.box.height) &&
        near(code.module, place.module)
      );
    })
  );
}

/**
 * Where the codes among these layers go on the sheet's raster, found as drawing them would place
 * them (same transform, same rounding) with nothing painted: DrawnCodes in the sheet's pixels.
 */
function placeCodes(
  dc: DrawContext,
  layers: readonly DrawnLayer[],
  sheet: SheetGeometry,
  scale: number,
): DrawnCode[] {
  const { ctx } = dc;
  ctx.reset();
  if (scale !== 1) ctx.scale(scale, scale);
  ctx.translate(sheet.origin, sheet.origin);
  dc.codes = [];
  dc.placeOnly = true;
  try {
    for (const layer of layers) {
      if (layer.kind === 'qr' || layer.kind === 'barcode') drawPlacedLayer(dc, layer, new Map());
    }
    return dc.codes;
  } finally {
    dc.placeOnly = false;
    ctx.reset();
  }
}

/** The box, in the sheet's pixels, holding every pixel the codes are read from; null for none. */
function readBounds(codes: readonly DrawnCode[]): Bounds | null {
  if (codes.length === 0) return null;
  const areas = codes.map(readArea);
  return {
    left: Math.min(...areas.map((box) => box.x)),
    top: Math.min(...areas.map((box) => box.y)),
    right: Math.max(...areas.map((box) => box.x + box.width)),
    bottom: Math.max(...areas.map((box) => box.y + box.height)),
  };
}

/** A box of the sheet's raster on whole pixels, on the sheet (at least one pixel). */
function pixelArea(bounds: Bounds, sheet: SheetGeometry, scale: number): Box {
  const size = sheetPixelSize(sheet, scale);
  const grid = (value: number, round: (n: number) => number) =>
    round(value / AREA_GRID) * AREA_GRID;
  const x = clampPixel(grid(bounds.left, Math.floor), size.width - 1);
  const y = clampPixel(grid(bounds.top, Math.floor), size.height - 1);
  const right = clampPixel(grid(bounds.right, Math.ceil), size.width);
  const bottom = clampPixel(grid(bounds.bottom, Math.ceil), size.height);
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}

/**
 * The area's edges fall on this grid of the sheet's pixels: codes of other sizes (a longer
 * link, a longer barcode) mostly give the same canvas size, which the canvas pool keeps, rather
 * than a new size on every row.
 */
const AREA_GRID = 64;

const clampPixel = (value: number, max: number) => Math.max(0, Math.min(max, value));

/** One layer in trim coordinates: with its opacity, turned about its centre, and its link. */
function drawPlacedLayer(
  dc: DrawContext,
  layer: DrawnLayer,
  images: Map<string, PreparedImage | null>,
): void {
  const { ctx } = dc;
  ctx.save();
  if (layer.opacity !== undefined) ctx.globalAlpha = layer.opacity;
  if (layer.rotation) {
    const cx = layer.x + layer.width / 2;
    const cy = layer.y + layer.height / 2;
    ctx.translate(cx, cy);
    ctx.rotate((layer.rotation * Math.PI) / 180);
    ctx.translate(-cx, -cy);
  }
  drawLayer(dc, layer, images);
  if (layer.kind === 'text' || layer.kind === 'image') {
    annotateLink(dc, layer, layerLinkHref(layer, dc.template, dc.values));
  }
  ctx.restore();
}

function drawLayer(
  dc: DrawContext,
  layer: DrawnLayer,
  images: Map<string, PreparedImage | null>,
): void {
  switch (layer.kind) {
    case 'text':
      return drawTextLayer(dc, layer);
    case 'image':
      return drawImageLayer(dc, layer, images.get(layer.id) ?? null);
    case 'shape':
      return drawShapeLayer(dc, layer);
    case 'qr':
      return drawQrLayer(dc, layer);
    case 'barcode':
      return drawBarcodeLayer(dc, layer);
    case 'list':
      return drawListLayer(dc, layer);
  }
}
