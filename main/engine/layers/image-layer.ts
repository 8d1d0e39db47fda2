import crypto from 'node:crypto';
import path from 'node:path';
import type { ImageLayer } from '../../../shared/template-format.js';
import type { ImageInput } from '../../render/render-protocol.js';
import type { DrawContext } from '../draw-context.js';
import {
  loadFittedImage,
  loadSourceImage,
  sourceFit,
  type FittedImage,
  type SourceImage,
} from '../load-image.js';
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
    const where = `layers.${layer.id}.source`;
    // A template may only use files of its own folder.
    if (path.relative(dc.assetsDir, file).startsWith('..') || path.isAbsolute(layer.source.asset)) {
      throw new LayerImageError(
        where,
        `the asset "${layer.source.asset}" is outside the template's folder`,
      );
    }
    return { input: { kind: 'file', path: file }, path: where };
  }
  const value = dc.values[layer.source.var];
  if (value && typeof value === 'object' && !Array.isArray(value))
    return { input: value, path: `values.${layer.source.var}` };
  return null;
}

/** The decoded source image, once per PDF when the context keeps a cache. */
function sharedSourceImage(dc: DrawContext, input: ImageInput): Promise<SourceImage | null> {
  const cache = dc.sourceImages;
  if (!cache) return loadSourceImage(input);
  const key = input.kind === 'file' ? `f:${input.path}` : `b:${hashBytes(input.bytes)}`;
  let image = cache.get(key);
  if (!image) {
    image = loadSourceImage(input);
    cache.set(key, image);
  }
  return image;
}

function hashBytes(bytes: Uint8Array): string {
  return crypto.createHash('sha1').update(bytes).digest('hex');
}

/** A raster page gets the image fitted to its box in pixels; a vector page the source image. */
export type PreparedImage = { fitted: FittedImage } | { source: SourceImage };

/** Loads the layer's image (outside the draw pass, so decoding runs while nothing else waits). */
export async function prepareImageLayer(
  dc: DrawContext,
  layer: ImageLayer,
): Promise<PreparedImage | null> {
  const source = inputFor(dc, layer);
  if (!source) return null;
  try {
    if (dc.vector) {
      const image = await sharedSourceImage(dc, source.input);
      if (image) return { source: image };
    }
    return {
      fitted: await loadFittedImage(source.input, {
        width: layer.width,
        height: layer.height,
        fit: layer.fit,
        focalPoint: layer.focalPoint,
      }),
    };
  } catch (error) {
    throw new LayerImageError(source.path, (error as Error).message);
  }
}

export function drawImageLayer(
  dc: DrawContext,
  layer: ImageLayer,
  image: PreparedImage | null,
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
  if ('fitted' in image) {
    const { fitted } = image;
    const alignOffset = (free: number) =>
      layer.align === 'start' ? 0 : layer.align === 'end' ? free * 2 : free;
    ctx.drawImage(
      fitted.canvas,
      Math.round(layer.x + alignOffset(fitted.offsetX)),
      Math.round(layer.y + alignOffset(fitted.offsetY)),
    );
  } else {
    const { source } = image;
    const at = sourceFit(
      source.width,
      source.height,
      layer,
      layer.fit,
      layer.focalPoint,
      layer.align,
    );
    ctx.drawImage(source.canvas, at.sx, at.sy, at.sw, at.sh, at.dx, at.dy, at.dw, at.dh);
  }
  ctx.restore();
  if (layer.stroke) {
    const paint = resolvePaint(ctx, layer.stroke.paint, layer, dc.values);
    if (!paint) return;
    // Inset by half the width so the stroke stays inside the layer's box.
    const inset = Math.min(layer.stroke.width / 2, layer.width / 2, layer.height / 2);
    const box = {
      x: layer.x + inset,
      y: layer.y + inset,
      width: layer.width - 2 * inset,
      height: layer.height - 2 * inset,
    };
    ctx.strokeStyle = paint;
    ctx.lineWidth = layer.stroke.width;
    ctx.setLineDash(layer.stroke.dash ?? []);
    if (layer.circle) {
      ctx.beginPath();
      ctx.ellipse(
        box.x + box.width / 2,
        box.y + box.height / 2,
        box.width / 2,
        box.height / 2,
        0,
        0,
        Math.PI * 2,
      );
    } else roundedRectPath(ctx, box, Math.max(0, layer.radius - inset));
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
