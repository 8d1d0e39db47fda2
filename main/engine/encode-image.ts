import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { OutputFormat } from '../render/render-protocol.js';

/**
 * PNG settings. Skia's own encoder (canvas.encode) takes ~85–200 ms for a 1080×1080 card; sharp
 * from the raw pixels is several times faster. Measured on the reference template: zlib level 2
 * with adaptive filtering gives 99 % of Skia's file size in ~27 ms, so that is the default: users
 * upload these files, and size is not traded for speed silently. `fast` (level 1, no filtering:
 * ~7 ms, ~1.6 × larger) and `small` (level 9 with filtering: slower, ~10 % smaller) are there for
 * those who choose.
 */
export const PNG_COMPRESSION = {
  fast: { compressionLevel: 1, adaptiveFiltering: false },
  balanced: { compressionLevel: 2, adaptiveFiltering: true },
  small: { compressionLevel: 9, adaptiveFiltering: true },
} as const;
export type PngCompression = keyof typeof PNG_COMPRESSION;
export const DEFAULT_PNG_COMPRESSION: PngCompression = 'balanced';
export const DEFAULT_PNG_COMPRESSION_LEVEL = PNG_COMPRESSION.balanced.compressionLevel;
export const DEFAULT_QUALITY = 90;

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export interface EncodeOptions {
  format: OutputFormat;
  quality?: number | undefined;
  pngCompression?: PngCompression | undefined;
  outputWidth?: number | undefined;
}

/** Encodes the canvas's pixels (always opaque) to RGB png, jpeg or webp. */
export async function encodeCanvas(canvas: Canvas, options: EncodeOptions): Promise<Buffer> {
  let image = sharp(canvas.data(), {
    raw: { width: canvas.width, height: canvas.height, channels: 4 },
  }).removeAlpha();
  if (options.outputWidth !== undefined && options.outputWidth < canvas.width) {
    image = image.resize({ width: options.outputWidth });
  }
  const quality = options.quality ?? DEFAULT_QUALITY;
  switch (options.format) {
    case 'png':
      return image
        .png(PNG_COMPRESSION[options.pngCompression ?? DEFAULT_PNG_COMPRESSION])
        .toBuffer();
    case 'jpeg':
      return image.jpeg({ quality, mozjpeg: false }).toBuffer();
    case 'webp':
      return image.webp({ quality }).toBuffer();
  }
}
