import { z } from 'zod';
import type { OutputFormat } from './api-schemas.js';
import { MAX_PAGES } from './template-limits.js';

/**
 * How a render is delivered beyond its format, shared by single renders and batches: the scale
 * of raster outputs, a transparent background, one page of several, crop marks. `outputOptionProblems` holds the
 * combinations a format allows; the server answers 422 with them.
 */
/** The scales a raster output may be asked for (output pixels per layout pixel). */
export const SCALE_RANGE = { min: 0.25, max: 4 } as const;

export const OutputOptions = {
  scale: z
    .number()
    .min(SCALE_RANGE.min)
    .max(SCALE_RANGE.max)
    .optional()
    .describe(
      'Raster formats: output pixels per layout pixel (2 for retina); 1 when absent. The output is at most 5000 px a side.',
    ),
  background: z
    .enum(['template', 'transparent'])
    .optional()
    .describe(
      "png, webp, avif: `transparent` leaves out the layout's background and keeps the alpha channel; `template` (the default) draws it.",
    ),
  page: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGES)
    .optional()
    .describe(
      'One page of a multi-page layout, from 1. Without it a pdf has every page, and a raster format is a zip of numbered images (1.png, 2.png, …) for a single render; a batch of images needs it.',
    ),
  cropMarks: z
    .boolean()
    .optional()
    .describe(
      'Crop marks outside the trim and bleed (print layouts; for pixel layouts at 96 px an inch); the page or image grows to hold them.',
    ),
};

export interface OutputOptionValues {
  format: OutputFormat;
  scale?: number | undefined;
  background?: 'template' | 'transparent' | undefined;
}

export const TRANSPARENT_FORMATS: readonly OutputFormat[] = ['png', 'webp', 'avif'];

export function outputOptionProblems(
  options: OutputOptionValues,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (options.scale !== undefined && options.scale !== 1 && options.format === 'pdf') {
    problems.push({
      path: 'scale',
      message: 'a PDF is vector and has no scale; leave scale out, or choose a raster format',
    });
  }
  if (options.background === 'transparent' && !TRANSPARENT_FORMATS.includes(options.format)) {
    problems.push({
      path: 'background',
      message: `${options.format} has no transparency; use png, webp or avif for a transparent background`,
    });
  }
  return problems;
}
