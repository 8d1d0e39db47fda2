import path from 'node:path';
import type { ImageLayer } from '../../../shared/template-format.js';
import type { ImageInput } from '../../render/render-protocol.js';
import type { DrawContext } from '../draw-context.js';
import { loadFittedImage } from '../load-image.js';
import { resolvePaint, roundedRectPath } from '../paint.js';

export class LayerImageError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function inputFor(dc: DrawContext, layer: ImageLayer): { input: ImageInput; path: string } | null {
  if ('asset' in layer.source) {
    const file = path.resolve(dc.assetsDir, layer.source.asset);
    return { input: { kind: 'file', path: file }, path: `layers.${layer.id}` };
  }
  const value = dc.values[layer.source.var];
  if (value && typeof value === 'object' && !Array.isArray(value))
    return { input: value, path: `values.${layer.source.var}` };
  return null;
}

/** Loads the layer's image (outside the draw pass, so decoding runs while nothing else waits). */
export async function prepareImageLayer(dc: DrawContext, layer: ImageLayer) {
  const source = inputFor(dc, layer);
  if (!source) return null;
  try {
    return await loadFittedImage(source.input, {
      width: layer.width,
      height: layer.height,
      fit: layer.fit,
      focalPoint: layer.focalPoint,
    });
  } catch (error) {
    throw new LayerImageError(source.path, `${source.path}: ${(error as Error).message}`);
  }
}

export function drawImageLayer(
  dc: DrawContext,
  layer: ImageLayer,
  image: Awaited<ReturnType<typeof prepareImageLayer>>,
): void {
  if (!image) return;
  const { ctx } = dc;
  ctx.save();
  if (layer.circle) {
    ctx.beginPath();
    ctx.ellipse(
      layer.x + layer.width / 2,
      layer.y + layer.height / 2,
      layer.width / 2,
      layer.height / 2,
      0,
      0,
      Math.PI * 2,
    );
    ctx.clip();
  } else if (layer.radius > 0) {
    roundedRectPath(ctx, layer, layer.radius);
    ctx.clip();
  }
  const alignOffset = (free: number) =>
    layer.align === 'start' ? 0 : layer.align === 'end' ? free * 2 : free;
  ctx.drawImage(
    image.canvas,
    Math.round(layer.x + alignOffset(image.offsetX)),
    Math.round(layer.y + alignOffset(image.offsetY)),
  );
  ctx.restore();
  if (layer.stroke) {
    const paint = resolvePaint(ctx, layer.stroke.paint, layer, dc.values);
    if (!paint) return;
    ctx.strokeStyle = paint;
    ctx.lineWidth = layer.stroke.width;
    ctx.setLineDash(layer.stroke.dash ?? []);
    if (layer.circle) {
      ctx.beginPath();
      ctx.ellipse(
        layer.x + layer.width / 2,
        layer.y + layer.height / 2,
        layer.width / 2,
        layer.height / 2,
        0,
        0,
        Math.PI * 2,
      );
    } else roundedRectPath(ctx, layer, layer.radius);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
