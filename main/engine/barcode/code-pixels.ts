import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { Box } from './barcode-placement.js';
import type { RgbaPixels } from './code-reader.js';

/**
 * The pixels codes are read back from: a part of an output, cut out around one code. Boxes are
 * in the drawing canvas's pixels; an output encoded at another width is scaled to match.
 */
export interface CodePixels {
  crop(box: Box): CroppedPixels;
}

/** A cut-out, and where it is: its top left corner in the image, and image pixels a canvas pixel. */
export interface CroppedPixels extends RgbaPixels {
  x: number;
  y: number;
  scale: number;
}

/**
 * A drawn canvas: the pixels of a PNG of it, which is lossless, before they are encoded.
 * `opaque`: drawn on paper, so no pixel needs putting on white.
 */
export function canvasPixels(canvas: Canvas, options: { opaque?: boolean } = {}): CodePixels {
  const ctx = canvas.getContext('2d');
  return {
    crop(box) {
      const area = clamp(box, canvas.width, canvas.height);
      const image = ctx.getImageData(area.x, area.y, area.width, area.height);
      const read = { data: image.data, width: image.width, height: image.height };
      const pixels = options.opaque ? read : onWhite(read);
      return { ...pixels, x: area.x, y: area.y, scale: 1 };
    },
  };
}

/**
 * An encoded output (JPEG, WebP, AVIF: lossy, so its own pixels are what prints), decoded once
 * onto white, as a transparent output is seen on paper.
 */
export async function encodedPixels(bytes: Uint8Array, canvasWidth: number): Promise<CodePixels> {
  const { data, info } = await sharp(bytes)
    .flatten({ background: '#FFFFFF' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const scale = info.width / canvasWidth;
  return {
    crop(box) {
      const area = clamp(
        {
          x: box.x * scale,
          y: box.y * scale,
          width: box.width * scale,
          height: box.height * scale,
        },
        info.width,
        info.height,
      );
      const out = new Uint8ClampedArray(area.width * area.height * 4);
      for (let row = 0; row < area.height; row += 1) {
        const from = ((area.y + row) * info.width + area.x) * 4;
        out.set(data.subarray(from, from + area.width * 4), row * area.width * 4);
      }
      return { data: out, width: area.width, height: area.height, x: area.x, y: area.y, scale };
    },
  };
}

/** The box on whole pixels, inside the image (at least one pixel). */
function clamp(box: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.min(width - 1, Math.floor(box.x)));
  const y = Math.max(0, Math.min(height - 1, Math.floor(box.y)));
  return {
    x,
    y,
    width: Math.max(1, Math.min(width, Math.ceil(box.x + box.width)) - x),
    height: Math.max(1, Math.min(height, Math.ceil(box.y + box.height)) - y),
  };
}

/** Transparent pixels composited onto white (the reader would take them for black). */
function onWhite(pixels: RgbaPixels): RgbaPixels {
  const { data } = pixels;
  for (let i = 3; i < data.length; i += 4) {
    const alpha = data[i]!;
    if (alpha === 255) continue;
    const white = 255 - alpha;
    data[i - 3] = (data[i - 3]! * alpha) / 255 + white;
    data[i - 2] = (data[i - 2]! * alpha) / 255 + white;
    data[i - 1] = (data[i - 1]! * alpha) / 255 + white;
    data[i] = 255;
  }
  return pixels;
}
