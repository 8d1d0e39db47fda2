import { RenderRequest } from '../../shared/api-schemas.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { SCALE_RANGE } from '../../shared/output-options.js';
import { outputFormat } from './output-format.js';
import { UsageError } from './usage-error.js';

export function parseQuality(command: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const quality = Number(raw);
  if (!Number.isInteger(quality) || quality < 1 || quality > 100)
    throw new UsageError(
      `${command}: --quality must be a whole number from 1 to 100; got "${raw}"`,
    );
  return quality;
}

/** `--scale`: output pixels per layout pixel, as the API's `scale` (raster formats). */
export function parseScale(command: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const scale = Number(raw);
  const { min, max } = SCALE_RANGE;
  if (raw.trim() === '' || !Number.isFinite(scale) || scale < min || scale > max)
    throw new UsageError(
      `${command}: --scale must be a number from ${min} to ${max} (2 for retina screens); got "${raw}"`,
    );
  return scale;
}

/** The flags of `render` as the request POST /v1/render would receive, checked by its schema. */
export function renderRequest(flags: {
  templateId: string;
  out: string;
  values: Record<string, unknown>;
  format?: string | undefined;
  target?: string | undefined;
  quality?: string | undefined;
  scale?: string | undefined;
  brand?: string | undefined;
  'crop-marks'?: boolean | undefined;
}): RenderRequest {
  const parsed = RenderRequest.safeParse({
    templateId: flags.templateId,
    values: flags.values,
    format: outputFormat('render', flags.format, flags.out),
    ...(flags.target !== undefined ? { target: flags.target } : {}),
    ...(flags.quality !== undefined ? { quality: parseQuality('render', flags.quality) } : {}),
    ...(flags.scale !== undefined ? { scale: parseScale('render', flags.scale) } : {}),
    ...(flags.brand !== undefined ? { brand: flags.brand } : {}),
    ...(flags['crop-marks'] === true ? { cropMarks: true } : {}),
  });
  if (!parsed.success)
    throw new UsageError(
      `render: ${zodProblems(parsed.error)
        .map((p) => `${p.path === 'templateId' ? '--template' : `--${p.path}`}: ${p.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}
