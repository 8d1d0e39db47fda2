import crypto from 'node:crypto';
import path from 'node:path';
import type { ImageLayer, KeepBox } from '../../../shared/template-format.js';
import type { ImageInput } from '../../render/render-protocol.js';
import type { DrawContext } from '../draw-context.js';
import {
  loadFittedImage,
  loadSourceImage,
  sourceFit,
  type FittedImage,
  type SourceImage,
} from '../load-image.js';
import { keepWindow, type SourceWindow } from '../../../shared/keep-window.js';
import { ellipsePath, resolvePaint, roundedRectPath } from '../paint.js';
import { drawVectorSvg, loadVectorSvg, type VectorSvg } from '../svg-vector.js';

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

/**
 * The subject a layer keeps whole (format 2): the layer's keep-box, or its image variable's;
 * for a variable, only while its value is the template's sample or default image, which is the
 * image the box describes (any other image carries none and is cropped on the focal point).
 */
export function keepBoxOf(
  dc: DrawContext,
  layer: ImageLayer,
  input: ImageInput,
): KeepBox | undefined {
  if (dc.template.schemaVersion < 2 || layer.fit !== 'cover') return undefined;
  if ('asset' in layer.source) return layer.keep;
  const name = layer.source.var;
  const variable = dc.template.variables.find((v) => v.name === name);
  const keep = layer.keep ?? (variable?.type === 'image' ? variable.keep : undefined);
  if (!keep || input.kind !== 'file') return undefined;
  const samples = [dc.template.sampleValues[name], variable?.default];
  const isSample = samples.some(
    (sample) =>
      typeof sample === 'string' &&
      sample.startsWith('asset:') &&
      path.resolve(dc.assetsDir, sample.slice('asset:'.length)) === path.resolve(input.path),
  );
  return isSample ? keep : undefined;
}

/** What the frame shows of a kept subject's image, for the rule that checks it stays whole. */
export interface ImageCrop {
  keep: KeepBox;
  /** The part of the image the frame shows, in fractions (beyond 0–1 where the image stops). */
  shown: { x: number; y: number; width: number; height: number };
}

/**
 * A raster page gets the image fitted to its box in pixels; a vector page the source image, or an
 * SVG's shapes as paths.
 */
export type PreparedImage = (
  { fitted: FittedImage } | { source: SourceImage } | { vector: VectorSvg }
) & {
  crop?: ImageCrop;
};

/** Loads the layer's image (outside the draw pass, so decoding runs while nothing else waits). */
export async function prepareImageLayer(
  dc: DrawContext,
  layer: ImageLayer,
): Promise<PreparedImage | null> {
  const source = inputFor(dc, layer);
  if (!source) return null;
  const keep = keepBoxOf(dc, layer, source.input);
  // A PDF draws the whole source; the crop says which part of it the frame shows.
  const cropOf = (image: { width: number; height: number }): { crop?: ImageCrop } => {
    if (!keep) return {};
    const window = keepWindow(
      image.width,
      image.height,
      layer.width,
      layer.height,
      layer.focalPoint,
      keep,
    );
    return { crop: { keep, shown: fractions(window, image) } };
  };
  try {
    if (dc.vector) {
      const svg = await loadVectorSvg(source.input);
      if (svg) return { vector: svg, ...cropOf(svg) };
      const image = await sharedSourceImage(dc, source.input);
      if (image) return { source: image, ...cropOf(image) };
    }
    const fitted = await loadFittedImage(source.input, {
      width: layer.width,
      height: layer.height,
      fit: layer.fit,
      focalPoint: layer.focalPoint,
      ...(keep ? { keep } : {}),
    });
    return keep && fitted.kept ? { fitted, crop: { keep, shown: fitted.kept.shown } } : { fitted };
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
  // A PDF draws from the source's own pixels (or vectors): where in them the layer's fit cuts.
  const placeSource = (size: { width: number; height: number }) =>
    sourceFit(
      size.width,
      size.height,
      layer,
      layer.fit,
      layer.focalPoint,
      layer.align,
      image.crop?.keep,
    );
  ctx.save();
  if (layer.circle) {
    ellipsePath(ctx, layer);
    ctx.clip();
  } else if (layer.radius > 0) {
    roundedRectPath(ctx, layer, layer.radius);
    ctx.clip();
  }
  if (layer.background) {
    const paint = resolvePaint(ctx, layer.background, layer, dc.values);
    if (paint) {
      ctx.fillStyle = paint;
      ctx.fillRect(layer.x, layer.y, layer.width, layer.height);
    }
  }
  if ('fitted' in image && image.fitted.kept) {
    const { fitted } = image;
    ctx.drawImage(
      fitted.canvas,
      Math.round(layer.x + fitted.offsetX),
      Math.round(layer.y + fitted.offsetY),
    );
  } else if ('fitted' in image) {
    const { fitted } = image;
    const alignOffset = (free: number) =>
      layer.align === 'start' ? 0 : layer.align === 'end' ? free * 2 : free;
    ctx.drawImage(
      fitted.canvas,
      Math.round(layer.x + alignOffset(fitted.offsetX)),
      Math.round(layer.y + alignOffset(fitted.offsetY)),
    );
  } else if ('vector' in image) {
    const { vector } = image;
    const at = placeSource(vector);
    // The part of the SVG the fit shows, scaled into its place: what drawImage's source
    // rectangle does for a bitmap.
    ctx.beginPath();
    ctx.rect(at.dx, at.dy, at.dw, at.dh);
    ctx.clip();
    const kx = at.dw / at.sw;
    const ky = at.dh / at.sh;
    ctx.translate(at.dx - at.sx * kx, at.dy - at.sy * ky);
    ctx.scale(kx, ky);
    drawVectorSvg(ctx, vector);
  } else {
    const { source } = image;
    const at = placeSource(source);
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
    if (layer.circle) ellipsePath(ctx, box);
    else roundedRectPath(ctx, box, Math.max(0, layer.radius - inset));
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function fractions(window: SourceWindow, image: { width: number; height: number }) {
  return {
    x: window.x / image.width,
    y: window.y / image.height,
    width: window.width / image.width,
    height: window.height / image.height,
  };
}
