import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { OutputFormat } from '../render/render-protocol.js';

/**
 * PNG settings. Skia's own encoder (canvas.encode('png')) takes 70–200 ms for a 1080×1080 card;
 * sharp from the raw pixels is several times faster. No fixed setting wins on every card, so the
 * default was measured against Skia's size on every built-in template (sample values, square):
 *   zlib 2 + adaptive filtering: 93 … 130 %, avg 29 ms (too big on flat, saturated cards)
 *   zlib 3 + adaptive: 92 … 106 %, avg 31 ms (but +12 % on the engine tests' busiest card)
 *   zlib 4 + adaptive: 92 … 104 %, avg 34 ms   ← `balanced`, the default
 *   zlib 6 without filtering: up to 117 % (too big on photos)
 * So `balanced` is the fastest setting that stays within 10 % of Skia on all of them; users
 * upload these files, so size is not traded for speed silently. `fast` (zlib 1, no filtering)
 * is ~1.6 × larger; `small` (zlib 9 + adaptive) is slower and smaller.
 */
export const PNG_COMPRESSION = {
  fast: { compressionLevel: 1, adaptiveFiltering: false },
  balanced: { compressionLevel: 4, adaptiveFiltering: true },
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
