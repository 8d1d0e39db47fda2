import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { OutputFormat } from '../render/render-protocol.js';

/**
 * zlib level for PNG output. Skia's own encoder (canvas.encode) takes ~200 ms for a 1080×1080
 * card; sharp from the raw pixels is several times faster. Level 6 without adaptive filtering
 * keeps files within a few percent of Skia's default size (users upload these files, so size
 * is not traded for speed silently); see bench/render-bench.ts for the measurement.
 */
export const DEFAULT_PNG_COMPRESSION_LEVEL = 3;
export const DEFAULT_QUALITY = 90;

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export interface EncodeOptions {
  format: OutputFormat;
  quality?: number | undefined;
  pngCompressionLevel?: number | undefined;
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
        .png({
          compressionLevel: options.pngCompressionLevel ?? DEFAULT_PNG_COMPRESSION_LEVEL,
          adaptiveFiltering: false,
        })
        .toBuffer();
    case 'jpeg':
      return image.jpeg({ quality, mozjpeg: false }).toBuffer();
    case 'webp':
      return image.webp({ quality }).toBuffer();
  }
}
