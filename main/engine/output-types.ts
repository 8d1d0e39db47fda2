import type { OutputFormat } from '../render/render-protocol.js';

// Apart from the encoders, so that naming a format's file does not load sharp.

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  pdf: 'application/pdf',
};

/** The file extension of each format. */
export const EXTENSIONS: Record<OutputFormat, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  avif: 'avif',
  pdf: 'pdf',
};

/** A multi-page layout's raster render: its numbered images in one zip (pages-zip.ts). */
export const ZIP_CONTENT_TYPE = 'application/zip';
