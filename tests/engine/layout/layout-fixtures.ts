import { createCanvas } from '@napi-rs/canvas';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderJob } from '../../../main/engine/render-job.js';
import type { RenderJob, ResolvedValue } from '../../../main/render/render-protocol.js';
import { Template, type LayoutName } from '../../../shared/template-format.js';
import { decodePixels, type Pixels } from '../fixtures/pixels.js';
import { rasterisePdf } from '../../helpers/poppler.js';

type LayerInput = Record<string, unknown>;

/**
 * A format 2 template with one layout (square unless named) holding these layers; `morePages`
 * adds pages. Text variables are declared by name; `image` variables by `imageVariables`.
 */
export function layoutTemplate(options: {
  layers: LayerInput[];
  ratio?: 'square' | 'story' | 'og' | 'landscape' | 'portrait';
  textVariables?: string[];
  imageVariables?: Array<Record<string, unknown>>;
  sampleValues?: Record<string, unknown>;
  morePages?: LayerInput[][];
  schemaVersion?: 1 | 2;
}): Template {
  const ratio = options.ratio ?? 'square';
  const sizes = {
    square: [1080, 1080],
    portrait: [1080, 1350],
    story: [1080, 1920],
    landscape: [1920, 1080],
    og: [1200, 630],
  } as const;
  const [width, height] = sizes[ratio];
  return Template.parse({
    schemaVersion: options.schemaVersion ?? 2,
    id: 'tmpl_layout_test',
    name: 'Layout test',
    category: 'Test',
    subCategory: 'Test',
    market: 'global',
    createdAt: '2026-01-01',
    variables: [
      ...(options.textVariables ?? []).map((name) => ({ name, type: 'text' })),
      ...(options.imageVariables ?? []),
    ],
    sampleValues: options.sampleValues ?? {},
    layouts: {
      [ratio]: {
        width,
        height,
        background: '#FFFFFF',
        layers: options.layers,
        ...(options.morePages
          ? { morePages: options.morePages.map((layers) => ({ layers })) }
          : {}),
      },
    },
  });
}

export function jobFor(
  template: Template,
  values: Record<string, ResolvedValue> = {},
  extra: Partial<RenderJob> = {},
  assetsDir = os.tmpdir(),
): RenderJob {
  const ratio = Object.keys(template.layouts)[0] as LayoutName;
  return { template, assetsDir, ratio, values, format: 'png', ...extra };
}

/** Renders and decodes (a PDF rasterised by poppler at 96 dpi, one pixel per layout pixel). */
export async function renderPixels(job: RenderJob): Promise<Pixels> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  if (job.format === 'pdf') return decodePixels(rasterisePdf(result.bytes, 96));
  return decodePixels(result.bytes);
}

export async function renderReport(job: RenderJob) {
  const result = await renderJob({ ...job, measureOnly: true });
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.report;
}

/** Bounds of the pixels close to `rgb` (each channel within `tolerance`), or null. */
export function colourBounds(
  p: Pixels,
  rgb: [number, number, number],
  tolerance = 24,
): { left: number; right: number; top: number; bottom: number; count: number } | null {
  let [left, right, top, bottom, count] = [Infinity, -1, Infinity, -1, 0];
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      if (
        Math.abs(p.data[i]! - rgb[0]) > tolerance ||
        Math.abs(p.data[i + 1]! - rgb[1]) > tolerance ||
        Math.abs(p.data[i + 2]! - rgb[2]) > tolerance
      )
        continue;
      count++;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? null : { left, right, top, bottom, count };
}

/** Top and bottom rows holding dark (text) pixels inside a column band, or null. */
export function darkRows(
  p: Pixels,
  area: { x: number; y: number; width: number; height: number },
): { top: number; bottom: number } | null {
  let [top, bottom] = [Infinity, -1];
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let x = area.x; x < area.x + area.width; x++) {
      const i = (y * p.width + x) * 3;
      if (p.data[i]! + p.data[i + 1]! + p.data[i + 2]! < 240) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        break;
      }
    }
  }
  return bottom < 0 ? null : { top, bottom };
}

/**
 * A `width × height` PNG on grey with a red subject box at `subject` (fractions), written to a
 * fresh folder; returns the folder and file name.
 */
export async function subjectImage(
  width: number,
  height: number,
  subject: { x: number; y: number; width: number; height: number },
): Promise<{ dir: string; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keep-'));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#808080';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#FF0000';
  ctx.fillRect(
    subject.x * width,
    subject.y * height,
    subject.width * width,
    subject.height * height,
  );
  await sharp(canvas.toBuffer('image/png')).toFile(path.join(dir, 'photo.png'));
  return { dir, file: 'photo.png' };
}
