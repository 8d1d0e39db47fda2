import type { Canvas } from '@napi-rs/canvas';
import type { ImageLayer, Layer, Layout } from '../../shared/template-format.js';
import type { RenderJob, TextLayerReport } from '../render/render-protocol.js';
import { acquireCanvas } from './canvas-pool.js';
import { isVisible, type DrawContext } from './draw-context.js';
import { drawImageLayer, prepareImageLayer } from './layers/image-layer.js';
import { drawListLayer } from './layers/list-layer.js';
import { drawQrLayer } from './layers/qr-layer.js';
import { drawShapeLayer } from './layers/shape-layer.js';
import { drawTextLayer } from './layers/text-layer.js';
import { resolvePaint } from './paint.js';

export interface DrawnTemplate {
  canvas: Canvas;
  layout: Layout;
  layers: TextLayerReport[];
  missingGlyphs: string[];
}

/**
 * Draws one layout of a template with resolved values onto an opaque canvas, taken from this
 * thread's canvas pool: the caller may hand it back with `releaseCanvas` once encoded.
 */
export async function renderTemplate(job: RenderJob): Promise<DrawnTemplate> {
  const layout = job.template.layouts[job.ratio];
  if (!layout) throw new Error(`The template has no ${job.ratio} layout.`);
  const canvas = acquireCanvas(layout.width, layout.height);
  const ctx = canvas.getContext('2d');
  const dc: DrawContext = {
    ctx,
    template: job.template,
    values: job.values,
    assetsDir: job.assetsDir,
    textReports: [],
    missingGlyphs: new Set(),
  };
  const visible = layout.layers.filter((layer) => isVisible(layer, job.values));
  // Decode every image first (in parallel), then draw in order without waiting mid-way.
  const images = new Map<string, Awaited<ReturnType<typeof prepareImageLayer>>>();
  await Promise.all(
    visible
      .filter((layer): layer is ImageLayer => layer.kind === 'image')
      .map(async (layer) => images.set(layer.id, await prepareImageLayer(dc, layer))),
  );

  const full = { x: 0, y: 0, width: layout.width, height: layout.height };
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, layout.width, layout.height);
  const background = resolvePaint(ctx, layout.background, full, job.values);
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, layout.width, layout.height);
  }
  for (const layer of visible) {
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
    ctx.restore();
  }
  return { canvas, layout, layers: dc.textReports, missingGlyphs: [...dc.missingGlyphs] };
}

function drawLayer(
  dc: DrawContext,
  layer: Layer,
  images: Map<string, Awaited<ReturnType<typeof prepareImageLayer>>>,
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
    case 'list':
      return drawListLayer(dc, layer);
  }
}
