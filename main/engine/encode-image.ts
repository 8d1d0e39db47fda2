import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { OutputFormat } from '../render/render-protocol.js';
import { writePng, type PngWriterOptions } from './png-writer.js';

/**
 * PNG settings. Skia's own encoder (canvas.encode('png')) takes 70–200 ms for a 1080×1080 card,
 * so we encode the raw pixels ourselves. `bench/png-encoders.ts` compares encoders on every
 * built-in template × ratio (sample values, 115 images then): size against Skia's for the same
 * pixels, and median encode time (interleaved rounds, one at a time; a loaded 2-core machine, so
 * compare within a run). Reference = product-promo square.
 *
 *   encoder                                    reference   all (median)  size vs Skia
 *   png-writer auto + zlib 4   ← `balanced`      17.7 ms      24.4 ms       69 … 107 %
 *   png-writer Paeth + zlib 4                    19.4 ms      27.7 ms       90 … 103 %
 *   png-writer Up + zlib 5                       16.1 ms      25.4 ms       89 … 107 %
 *   sharp zlib 3 + adaptive filtering            23.3 ms      34.2 ms       91 … 109 %
 *   sharp zlib 4 + adaptive (the old default)    24.7 ms      34.9 ms       90 … 108 %
 *   png-writer, any filter, zlib 1–3: up to 116 % or more; one fixed Up/Sub/None at zlib 4: up
 *   to 115–159 %; sharp without filtering: up to 160 %.
 *
 * `balanced` picks one filter per image by trial (png-writer.ts) and deflates with Node's zlib at
 * level 4: the fastest setting within 10 % of Skia on all of them; users upload these files, so
 * size is not traded for speed silently. Deflating two strips at once on the libuv pool gained
 * nothing on a busy machine and would take a core from the other render workers, so it is one
 * thread. `fast` (sharp, zlib 1, no filtering) is ~1.6 × larger; `small` (sharp, zlib 9 +
 * adaptive) is slower and smaller.
 *
 * Since then the writer filters in WebAssembly (png-filter.wat) and writes photo and gradient
 * cards Paeth + Z_RLE when its trial predicts a smaller file. `bench/png-writer-vs-baseline.ts`
 * (198 cards, the previous writer interleaved in the same run, 9 rounds): new/old bytes
 * 0.863 … 1.000 (80 cards Paeth + Z_RLE, all smaller; the others the same bytes as before), at
 * most 101 % of Skia. Encode per 1080² card, old 23.1 ms → new 12.5 ms (medians), new/old
 * median 0.70: 0.46 on the Paeth + Z_RLE cards (at most 0.51), 0.79 on the others, where zlib's
 * level-4 deflate alone is ~60 % of the previous encode and Node's zlib has no faster setting
 * at the same size.
 */
export type PngSettings =
  | { encoder: 'sharp'; compressionLevel: number; adaptiveFiltering: boolean }
  | ({ encoder: 'png-writer' } & PngWriterOptions);

export const PNG_COMPRESSION = {
  fast: { encoder: 'sharp', compressionLevel: 1, adaptiveFiltering: false },
  balanced: { encoder: 'png-writer', filter: 'auto', level: 4 },
  small: { encoder: 'sharp', compressionLevel: 9, adaptiveFiltering: true },
} as const satisfies Record<string, PngSettings>;
export type PngCompression = keyof typeof PNG_COMPRESSION;
export const DEFAULT_PNG_COMPRESSION: PngCompression = 'balanced';
export const DEFAULT_PNG_COMPRESSION_LEVEL = PNG_COMPRESSION.balanced.level;
export const DEFAULT_QUALITY = 90;

export { CONTENT_TYPES, EXTENSIONS, ZIP_CONTENT_TYPE } from './output-types.js';

/** The raster formats (everything but pdf). */
export type RasterFormat = Exclude<OutputFormat, 'pdf'>;

/**
 * AVIF: 4:4:4 (text and flat brand colours fringe with 4:2:0) at sharp's fastest effort, 0 of 0–9.
 * On the reference card (`BENCH_AVIF_SWEEP=1 npm run bench:print`, one loaded 2-core machine):
 * effort 0 quality 70 is ~24 % of the PNG at 43 dB PSNR (no visible loss) in ~55 ms; effort 2
 * is 14 % in ~225 ms and effort 4 12 % in ~1.5 s. Encode time is the bar (≤ 3× the PNG's), so
 * effort 0; a request's `quality` replaces 70.
 */
export const AVIF_SETTINGS = { quality: 70, effort: 0, chromaSubsampling: '4:4:4' } as const;

export interface EncodeOptions {
  format: RasterFormat;
  quality?: number | undefined;
  pngCompression?: PngCompression | undefined;
  outputWidth?: number | undefined;
  /** Keep the alpha channel (png, webp, avif); jpeg has none and is always opaque. */
  transparent?: boolean | undefined;
}

/** Opaque RGBA pixels (4 bytes a pixel) as an RGB PNG with the given preset. */
export async function encodePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  compression: PngCompression = DEFAULT_PNG_COMPRESSION,
): Promise<Buffer> {
  const settings: PngSettings = PNG_COMPRESSION[compression];
  if (settings.encoder === 'png-writer') return writePng(rgba, width, height, settings);
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .png({
      compressionLevel: settings.compressionLevel,
      adaptiveFiltering: settings.adaptiveFiltering,
    })
    .toBuffer();
}

/** Encodes the canvas's pixels to png, jpeg, webp or avif: RGB, or RGBA when transparent. */
export async function encodeCanvas(canvas: Canvas, options: EncodeOptions): Promise<Buffer> {
  const raw = { width: canvas.width, height: canvas.height, channels: 4 } as const;
  const resize = options.outputWidth !== undefined && options.outputWidth < canvas.width;
  const transparent = options.transparent === true && options.format !== 'jpeg';
  if (options.format === 'png' && !transparent) {
    if (!resize)
      return encodePng(canvas.data(), canvas.width, canvas.height, options.pngCompression);
    // Opaque, so resizing with the alpha channel gives the same RGB as without it.
    const { data, info } = await sharp(canvas.data(), { raw })
      .resize({ width: options.outputWidth })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return encodePng(data, info.width, info.height, options.pngCompression);
  }
  // The canvas holds premultiplied pixels; getImageData gives them straight, as sharp expects.
  const pixels = transparent
    ? canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
    : canvas.data();
  let image = sharp(pixels, { raw });
  if (!transparent) image = image.removeAlpha();
  if (resize) image = image.resize({ width: options.outputWidth });
  const quality = options.quality ?? DEFAULT_QUALITY;
  switch (options.format) {
    case 'png':
      // Transparent PNGs are rare; sharp's RGBA encoder at a middle level is enough for them.
      return image.png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer();
    case 'jpeg':
      return image.jpeg({ quality, mozjpeg: false }).toBuffer();
    case 'webp':
      return image.webp({ quality }).toBuffer();
    case 'avif':
      return image
        .avif({ ...AVIF_SETTINGS, ...(options.quality !== undefined ? { quality } : {}) })
        .toBuffer();
  }
}
