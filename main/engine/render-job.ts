import path from 'node:path';
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';
import type { RenderJob, RenderResult, TextLayerReport } from '../render/render-protocol.js';
import { releaseCanvas } from './canvas-pool.js';
import { drawnBoxesOf } from '../../shared/drawn-boxes.js';
import type { Problem } from '../../shared/errors.js';
import { pageCount } from '../../shared/layout-pages.js';
import { CONTENT_TYPES, EXTENSIONS, ZIP_CONTENT_TYPE, encodeCanvas } from './encode-image.js';
import { zipPages } from './pages-zip.js';
import { registerBundledFonts, registerFontsFor, syncCustomFonts } from './fonts.js';
import { LayerImageError } from './layers/image-layer.js';
import { renderPdf } from './render-pdf.js';
import { renderSheets } from './render-sheets.js';
import { layoutOf, renderTemplate } from './render-template.js';
import { checkRules, measureWithRules } from './rules/check-rules.js';
import { sheetGeometry, sheetPixelSize } from './sheet-geometry.js';
import { codeFailure, unreadableInRaster, unreadableOnPage } from './verify-job-codes.js';

/** The bundled fonts, beside the templates. */
export const FONTS_DIR = fileURLToPath(new URL('../../templates/fonts', import.meta.url));

/**
 * Draws and encodes one job. Same job → same bytes, in any thread, on any run: fonts are the
 * bundled ones and the custom ones the job lists, text is NFC, nothing depends on the clock or
 * randomness.
 */
let threadReady = false;

/** Once per thread: bundled fonts, and one libvips thread (the render pool already fills the cores). */
/** A PDF is drawn and written in one pass: its time is all drawMs. */
async function pdfResult(job: RenderJob): Promise<RenderResult> {
  const started = performance.now();
  const drawn = await renderPdf(job);
  const bytes = job.measureOnly ? Buffer.alloc(0) : drawn.bytes;
  if (job.verifyCodes) {
    const unreadable = await unreadableInRaster(job);
    if (unreadable.length > 0) return codeFailure(unreadable);
  }
  return {
    ok: true,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: CONTENT_TYPES.pdf,
    report: {
      width: Math.round(drawn.sheet.width),
      height: Math.round(drawn.sheet.height),
      layers: drawn.layers,
      missingGlyphs: drawn.missingGlyphs,
      drawMs: performance.now() - started,
      encodeMs: 0,
    },
  };
}

/** A part of a batch's sheets: one PDF of its rows N-up (render-sheets.ts). */
async function sheetsResult(job: RenderJob & { sheet: NonNullable<RenderJob['sheet']> }) {
  const started = performance.now();
  const drawn = await renderSheets(job);
  const { bytes } = drawn;
  return {
    ok: true as const,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: CONTENT_TYPES.pdf,
    report: {
      width: 0,
      height: drawn.pages,
      layers: [],
      missingGlyphs: [],
      drawMs: performance.now() - started,
      encodeMs: 0,
    },
  };
}

/** Every page of a multi-page layout as numbered images in one zip. */
async function pagesResult(job: RenderJob, pages: number): Promise<RenderResult> {
  const format = job.format === 'pdf' ? 'png' : job.format;
  const images: Buffer[] = [];
  const layers: TextLayerReport[] = [];
  const missing = new Set<string>();
  let drawMs = 0;
  let encodeMs = 0;
  let size = { width: 0, height: 0 };
  const unreadable: Problem[] = [];
  for (let page = 1; page <= pages; page++) {
    const started = performance.now();
    const drawn = await renderTemplate({ ...job, page });
    const drawnAt = performance.now();
    const image = job.measureOnly ? null : await encodeCanvas(drawn.canvas, { ...job, format });
    if (image) images.push(image);
    drawMs += drawnAt - started;
    encodeMs += performance.now() - drawnAt;
    size = { width: drawn.canvas.width, height: drawn.canvas.height };
    if (job.verifyCodes)
      unreadable.push(...(await unreadableOnPage({ ...job, format }, drawn, image, page)));
    releaseCanvas(drawn.canvas);
    layers.push(...drawn.layers);
    for (const glyph of drawn.missingGlyphs) missing.add(glyph);
  }
  if (unreadable.length > 0) return codeFailure(unreadable);
  const bytes = job.measureOnly ? Buffer.alloc(0) : await zipPages(images, EXTENSIONS[format]);
  return {
    ok: true,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: ZIP_CONTENT_TYPE,
    report: { ...size, layers, missingGlyphs: [...missing], drawMs, encodeMs },
  };
}

/**
 * A job that asks for the layout rules. Measuring only (pre-flight), one drawing of each page
 * gives the report and the rules' verdict; otherwise the output is made as usual and checked.
 */
async function withRules(job: RenderJob): Promise<RenderResult> {
  if (job.measureOnly) {
    const started = performance.now();
    const measured = await measureWithRules(job);
    if (job.verifyCodes) {
      const unreadable = await unreadableInRaster(job);
      if (unreadable.length > 0) return codeFailure(unreadable);
    }
    const size = sheetPixelSize(sheetGeometry(layoutOf(job), job.cropMarks === true), 1);
    return {
      ok: true,
      bytes: new Uint8Array(0),
      contentType: CONTENT_TYPES[job.format],
      report: {
        ...size,
        layers: measured.layers,
        missingGlyphs: measured.missingGlyphs,
        rules: measured.violations,
        drawMs: performance.now() - started,
        encodeMs: 0,
      },
    };
  }
  const result = await renderJob({ ...job, checkRules: false });
  if (result.ok) result.report.rules = await checkRules(job);
  return result;
}

function prepareThread(): void {
  if (threadReady) return;
  sharp.concurrency(1);
  registerBundledFonts(path.resolve(FONTS_DIR), { deferEmoji: true });
  threadReady = true;
}

export async function renderJob(job: RenderJob): Promise<RenderResult> {
  prepareThread();
  registerFontsFor(job);
  if (job.fonts) syncCustomFonts(job.fonts);
  try {
    if (job.sheet) return await sheetsResult({ ...job, sheet: job.sheet });
    if (job.checkRules) return await withRules(job);
    if (job.format === 'pdf') return await pdfResult(job);
    const pages = pageCount(layoutOf(job));
    if (job.page === undefined && pages > 1) return await pagesResult(job, pages);
    const started = performance.now();
    const drawn = await renderTemplate(job);
    const drawMs = performance.now() - started;
    // Pre-flight only needs the layout report: skip the encoding, which is most of the cost.
    const bytes = job.measureOnly
      ? Buffer.alloc(0)
      : await encodeCanvas(drawn.canvas, { ...job, format: job.format });
    const encodeMs = performance.now() - started - drawMs;
    const { width, height } = drawn.canvas;
    const unreadable = job.verifyCodes
      ? await unreadableOnPage(job, drawn, job.measureOnly ? null : bytes, job.page ?? 1)
      : [];
    releaseCanvas(drawn.canvas);
    if (unreadable.length > 0) return codeFailure(unreadable);
    return {
      ok: true,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      contentType: CONTENT_TYPES[job.format],
      report: {
        width,
        height,
        layers: drawn.layers,
        missingGlyphs: drawn.missingGlyphs,
        // Only previews ask: a batch row's report crosses to the main thread for every row.
        ...(job.reportBoxes ? { boxes: drawnBoxesOf(drawn.drawnLayers) } : {}),
        drawMs,
        encodeMs,
      },
    };
  } catch (error) {
    if (error instanceof LayerImageError)
      return { ok: false, code: 'image-invalid', path: error.path, message: error.message };
    return {
      ok: false,
      code: 'render-failed',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
