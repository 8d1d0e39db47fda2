import crypto from 'node:crypto';
import fs from 'node:fs';
import { createCanvas, ImageData, type Canvas } from '@napi-rs/canvas';
import sharp, { type OutputInfo } from 'sharp';
import type { KeepBox } from '../../shared/template-format.js';
import type { ImageInput } from '../render/render-protocol.js';
import { keepWindow, type SourceWindow } from '../../shared/keep-window.js';
import { windowPlacement, type ImagePlacement } from './image-keep.js';
import { imageHead, notAnAllowedImage, sniffImageType } from './image-type.js';

export interface ImageFitting {
  width: number;
  height: number;
  fit: 'cover' | 'contain';
  focalPoint: { x: number; y: number };
  /** Format 2: the subject a cover crop keeps whole (fractions of the image). */
  keep?: KeepBox;
}

export interface FittedImage {
  canvas: Canvas;
  /** Where the pixels sit inside the box (contain leaves margins). */
  offsetX: number;
  offsetY: number;
  /**
   * A kept subject: the offsets are where the pixels go, whatever the layer's align, and the
   * part of the image the frame shows (in fractions; it may reach beyond the image).
   */
  kept?: { shown: SourceWindow };
}

export class ImageLoadError extends Error {}

/**
 * Fitted images per worker thread, least recently used first out: batch rows repeat logos and
 * photos. Bounded by pixel bytes, not entries, since one story-sized photo is 8 MB.
 */
const CACHE_BYTES = 96 * 1024 * 1024;
const cache = new Map<string, { image: Promise<FittedImage>; bytes: number }>();
let cachedBytes = 0;

/** sharp's default `limitInputPixels` (0x3FFF × 0x3FFF), kept on: it refuses decompression bombs. */
export const MAX_INPUT_PIXELS = 268_402_689;

function sourceKey(input: ImageInput): string {
  if (input.kind === 'file') {
    const stat = fs.statSync(input.path);
    return `f:${input.path}:${stat.mtimeMs}:${stat.size}`;
  }
  return `b:${crypto.createHash('sha1').update(input.bytes).digest('hex')}`;
}

/**
 * Decodes an image with sharp (full decode: metadata alone accepts truncated files; sharp's
 * default pixel limit refuses decompression bombs) and scales it to the box in device pixels,
 * cropping around the focal point for `cover`.
 */
export function loadFittedImage(input: ImageInput, fitting: ImageFitting): Promise<FittedImage> {
  let key: string;
  try {
    key = `${sourceKey(input)}|${fitting.width}x${fitting.height}|${fitting.fit}|${fitting.focalPoint.x},${fitting.focalPoint.y}`;
    if (fitting.keep && fitting.fit === 'cover') {
      const k = fitting.keep;
      key += `|keep:${k.x},${k.y},${k.width},${k.height}`;
    }
  } catch {
    return Promise.reject(new ImageLoadError('the file no longer exists or cannot be read'));
  }
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached.image;
  }
  const image = decode(input, fitting);
  const entry = { image, bytes: Math.ceil(fitting.width) * Math.ceil(fitting.height) * 4 };
  cache.set(key, entry);
  cachedBytes += entry.bytes;
  image.catch(() => {
    if (cache.get(key) === entry) {
      cache.delete(key);
      cachedBytes -= entry.bytes;
    }
  });
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES || old === entry) break;
    cache.delete(oldKey);
    cachedBytes -= old.bytes;
  }
  return image;
}

async function decode(input: ImageInput, fitting: ImageFitting): Promise<FittedImage> {
  const source = input.kind === 'file' ? input.path : Buffer.from(input.bytes);
  const boxW = Math.max(1, Math.round(fitting.width));
  const boxH = Math.max(1, Math.round(fitting.height));
  try {
    await assertDecodable(input);
    // The header read alone (no pixels) may skip the limit, so the message can say how big the
    // image claims to be; the decode below keeps sharp's default limit.
    const meta = await sharp(source, { limitInputPixels: false }).metadata();
    if (meta.width && meta.height && meta.width * meta.height > MAX_INPUT_PIXELS) {
      throw new ImageLoadError(
        `the image is ${meta.width}×${meta.height} pixels, over the ${Math.floor(MAX_INPUT_PIXELS / 1e6)}-megapixel limit; scale it down and try again`,
      );
    }
    // Vector images are rasterised at the density that gives the box size, never upscaled bitmaps.
    const density =
      meta.format === 'svg' && meta.width && meta.height
        ? Math.min(2400, Math.max(1, 72 * Math.max(boxW / meta.width, boxH / meta.height)))
        : undefined;
    const image = sharp(source, { ...(density ? { density } : {}), failOn: 'warning' }).rotate();
    // Orientation may swap the axes.
    const oriented = (meta.orientation ?? 1) >= 5;
    const srcW = (oriented ? meta.height : meta.width) ?? boxW;
    const srcH = (oriented ? meta.width : meta.height) ?? boxH;
    const scaleW = density ? (srcW * density) / 72 : srcW;
    const scaleH = density ? (srcH * density) / 72 : srcH;
    let raw: { data: Buffer; info: OutputInfo };
    let offsetX = 0;
    let offsetY = 0;
    let kept: FittedImage['kept'];
    if (fitting.fit === 'cover' && fitting.keep) {
      const window = keepWindow(scaleW, scaleH, boxW, boxH, fitting.focalPoint, fitting.keep);
      const at = windowPlacement(scaleW, scaleH, window, { x: 0, y: 0, width: boxW, height: boxH });
      const k = boxW / window.width;
      const w = Math.max(1, Math.round(scaleW * k));
      const h = Math.max(1, Math.round(scaleH * k));
      const left = clamp(Math.round(at.sx * k), 0, w - 1);
      const top = clamp(Math.round(at.sy * k), 0, h - 1);
      const width = clamp(Math.round(at.dw), 1, Math.min(boxW, w - left));
      const height = clamp(Math.round(at.dh), 1, Math.min(boxH, h - top));
      raw = await image
        .resize(w, h, { fit: 'fill' })
        .extract({ left, top, width, height })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      offsetX = Math.round(at.dx);
      offsetY = Math.round(at.dy);
      kept = {
        shown: {
          x: window.x / scaleW,
          y: window.y / scaleH,
          width: window.width / scaleW,
          height: window.height / scaleH,
        },
      };
    } else if (fitting.fit === 'cover') {
      const scale = Math.max(boxW / scaleW, boxH / scaleH);
      const w = Math.max(boxW, Math.round(scaleW * scale));
      const h = Math.max(boxH, Math.round(scaleH * scale));
      const left = clamp(Math.round(fitting.focalPoint.x * w - boxW / 2), 0, w - boxW);
      const top = clamp(Math.round(fitting.focalPoint.y * h - boxH / 2), 0, h - boxH);
      raw = await image
        .resize(w, h, { fit: 'fill' })
        .extract({ left, top, width: boxW, height: boxH })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    } else {
      const scale = Math.min(boxW / scaleW, boxH / scaleH);
      const w = Math.max(1, Math.round(scaleW * scale));
      const h = Math.max(1, Math.round(scaleH * scale));
      raw = await image
        .resize(w, h, { fit: 'fill' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      offsetX = (boxW - w) / 2;
      offsetY = (boxH - h) / 2;
    }
    const { width, height } = raw.info;
    const canvas = createCanvas(width, height);
    const pixels = new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
    canvas.getContext('2d').putImageData(new ImageData(pixels, width, height), 0, 0);
    return kept ? { canvas, offsetX, offsetY, kept } : { canvas, offsetX, offsetY };
  } catch (error) {
    if (error instanceof ImageLoadError) throw error;
    throw new ImageLoadError(describeDecodeError(error));
  }
}

/** A decoded image at its own resolution (EXIF orientation applied), for vector outputs. */
export interface SourceImage {
  canvas: Canvas;
  width: number;
  height: number;
}

/**
 * Decodes the whole image at its source resolution with the same limits as `loadFittedImage`.
 * A PDF draws it scaled into its box, so the page keeps every source pixel the box shows (Skia
 * embeds only the part drawn). An SVG has no source resolution: it is null here, and the caller
 * draws its fitted rendering.
 */
export async function loadSourceImage(input: ImageInput): Promise<SourceImage | null> {
  const source = input.kind === 'file' ? input.path : Buffer.from(input.bytes);
  try {
    await assertDecodable(input);
    const meta = await sharp(source, { limitInputPixels: false }).metadata();
    if (meta.format === 'svg') return null;
    if (meta.width && meta.height && meta.width * meta.height > MAX_INPUT_PIXELS) {
      throw new ImageLoadError(
        `the image is ${meta.width}×${meta.height} pixels, over the ${Math.floor(MAX_INPUT_PIXELS / 1e6)}-megapixel limit; scale it down and try again`,
      );
    }
    const { data, info } = await sharp(source, { failOn: 'warning' })
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const canvas = createCanvas(info.width, info.height);
    const pixels = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
    canvas.getContext('2d').putImageData(new ImageData(pixels, info.width, info.height), 0, 0);
    return { canvas, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof ImageLoadError) throw error;
    throw new ImageLoadError(describeDecodeError(error));
  }
}

/**
 * The last gate before sharp, in the thread that decodes: every image drawn passes here, also
 * those no value check saw (a template's own files), so no decoder but the allowed ones is
 * reached whatever the bytes are.
 */
async function assertDecodable(input: ImageInput): Promise<void> {
  let head: Uint8Array;
  try {
    head = await imageHead(input);
  } catch {
    throw new ImageLoadError('the file no longer exists or cannot be read');
  }
  if (!sniffImageType(head)) throw new ImageLoadError(notAnAllowedImage(head));
}

/** Where a source image of srcW × srcH is cut (s*) and drawn in its box (d*), as the raster fit. */
export function sourceFit(
  srcW: number,
  srcH: number,
  box: { x: number; y: number; width: number; height: number },
  fit: ImageFitting['fit'],
  focalPoint: ImageFitting['focalPoint'],
  align: 'start' | 'center' | 'end',
  keep?: KeepBox,
): ImagePlacement {
  if (fit === 'cover' && keep) {
    const window = keepWindow(srcW, srcH, box.width, box.height, focalPoint, keep);
    return windowPlacement(srcW, srcH, window, box);
  }
  if (fit === 'cover') {
    const scale = Math.max(box.width / srcW, box.height / srcH);
    const sw = Math.min(srcW, box.width / scale);
    const sh = Math.min(srcH, box.height / scale);
    const sx = clamp(focalPoint.x * srcW - sw / 2, 0, srcW - sw);
    const sy = clamp(focalPoint.y * srcH - sh / 2, 0, srcH - sh);
    return { sx, sy, sw, sh, dx: box.x, dy: box.y, dw: box.width, dh: box.height };
  }
  const scale = Math.min(box.width / srcW, box.height / srcH);
  const dw = srcW * scale;
  const dh = srcH * scale;
  const place = (free: number) => (align === 'start' ? 0 : align === 'end' ? free : free / 2);
  return {
    sx: 0,
    sy: 0,
    sw: srcW,
    sh: srcH,
    dx: box.x + place(box.width - dw),
    dy: box.y + place(box.height - dh),
    dw,
    dh,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function describeDecodeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return 'the image is over the 268-megapixel limit; scale it down and try again';
  }
  if (
    /unsupported image format|corrupt header|bad seek|premature end|truncated|read error|CRC|Warning treated as error|invalid|VipsJpeg|vipspng|webp/i.test(
      message,
    )
  ) {
    return 'the file is not a readable image (PNG, JPEG, WebP, GIF, SVG) or it is damaged or truncated';
  }
  return `the image could not be decoded (${message.split('\n')[0]})`;
}
