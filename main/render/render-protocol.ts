import type { OutputFormat } from '../../shared/api-schemas.js';
import type { ErrorCode } from '../../shared/errors.js';
import type { DrawnBox } from '../../shared/drawn-boxes.js';
import type { SheetPlan } from '../../shared/sheet-plan.js';
import type { LayoutName, Template } from '../../shared/template-format.js';
import type { RuleViolation } from '../engine/rules/rule-types.js';
import type { SharedTemplate } from './shared-templates.js';

/**
 * Messages between the render pool and its workers. The main thread validates and resolves
 * values; a worker only draws and encodes, so a job carries everything it needs and nothing the
 * worker must look up.
 */

// The wire contract's own type (type-only: nothing of zod loads in a render thread).
export type { OutputFormat };

/** An image value after the main thread resolved it: a readable file or decoded data-URI bytes. */
export type ImageInput =
  { kind: 'file'; path: string } | { kind: 'bytes'; bytes: Uint8Array; mime: string };

/**
 * A value after validation and normalisation (NFC text, numbers as numbers, dates as ISO
 * `YYYY-MM-DD`, lists as string arrays, colours as `#RRGGBB[AA]`, images as ImageInput,
 * empty as null).
 */
export type ResolvedValue = string | number | string[] | ImageInput | null;

/** A font the user uploaded, as a worker registers it: the family its layers name, and the file. */
export interface CustomFontFace {
  family: string;
  /** Absolute path of the stored font file (`<dataDir>/fonts/<sha256>.<ext>`). */
  path: string;
  weight: number;
  style: 'normal' | 'italic';
}

export interface RenderJob {
  template: Template;
  /** Absolute folder the template's `{ asset }` paths are relative to. */
  assetsDir: string;
  /** The layout drawn: a ratio, or a print or custom-size layout's name. */
  ratio: LayoutName;
  values: Record<string, ResolvedValue>;
  format: OutputFormat;
  /** 1–100 for jpeg/webp/avif; for pdf, the JPEG quality of its images (lossless when absent). */
  quality?: number;
  /** Raster outputs: pixels per layout pixel (2 for retina). */
  scale?: number;
  /** png/webp/avif: the layout's background left out, the rest on transparent pixels. */
  transparent?: boolean;
  /** Crop marks outside the trim (and bleed), on a sheet grown to hold them. */
  cropMarks?: boolean;
  /**
   * One page of a multi-page layout, from 1. Absent: a PDF has every page, and a raster format
   * of a multi-page layout is a zip of numbered images.
   */
  page?: number;
  /** png: `balanced` (default, within 10 % of Skia's default encoder's size), `fast` or `small`. */
  pngCompression?: 'fast' | 'balanced' | 'small';
  /** Scale the output down to this width (thumbnails); the layout is still drawn at full size. */
  outputWidth?: number;
  /** Draw and report (fitted sizes, missing glyphs) without encoding: pre-flight. */
  measureOnly?: boolean;
  /** Also check the layout rules after fitting (report.rules): pre-flight. */
  checkRules?: boolean;
  /** Report where each layer of the page was drawn (report.boxes): the editor's preview. */
  reportBoxes?: boolean;
  /**
   * Read every QR code and barcode back from the output's pixels (a PDF's from its pages drawn
   * as rasters at the print DPI): one that does not scan as its value fails the job with
   * `code-unreadable`. Sheets are not read; their rows are, one by one.
   */
  verifyCodes?: boolean;
  /**
   * Every installed custom font. The worker makes its registry match this list (registering new
   * faces, dropping deleted ones), so every thread draws a job with the same fonts. Absent: the
   * worker's custom fonts stay as they are (engine tests that use bundled fonts only).
   */
  fonts?: CustomFontFace[];
  /**
   * Sheets: these rows' values drawn N-up by the plan into one PDF (a part of a batch's sheets);
   * `values` is then unused. The job's deadline is the render deadline for each item drawn.
   */
  sheet?: { plan: SheetPlan; items: Record<string, ResolvedValue>[] };
}

/**
 * A job as posted to a worker: the template by reference (shared-templates.ts), and the pool's id
 * for it, which the worker announces when it starts drawing (RenderStarted).
 */
export type PostedRenderJob = Omit<RenderJob, 'template'> & {
  template: SharedTemplate;
  taskId: number;
};

/**
 * Posted by a worker on its parentPort once its modules are loaded. Until then the pool does not
 * terminate it: Node aborts the whole process when a thread is stopped while it is still
 * loading an ES module through require (v8 "IsGraphAsync must be used on an instantiated module").
 */
export interface RenderThreadLoaded {
  kind: 'render-thread-loaded';
  threadId: number;
}

export function isRenderThreadLoaded(message: unknown): message is RenderThreadLoaded {
  const candidate = message as Partial<RenderThreadLoaded> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.kind === 'render-thread-loaded' &&
    typeof candidate.threadId === 'number'
  );
}

/**
 * Posted by a worker on its parentPort as it starts a job. The render deadline runs from here,
 * not from when the job was handed over: a job may wait on its thread behind another one.
 */
export interface RenderStarted {
  kind: 'render-started';
  taskId: number;
  threadId: number;
}

export function isRenderStarted(message: unknown): message is RenderStarted {
  const candidate = message as Partial<RenderStarted> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.kind === 'render-started' &&
    typeof candidate.taskId === 'number' &&
    typeof candidate.threadId === 'number'
  );
}

/** What the engine measured while drawing a text or list layer. */
export interface TextLayerReport {
  id: string;
  /** The size the text was drawn at after shrink-to-fit. */
  fittedSize: number;
  lines: number;
  /** True when the text had to be ellipsised because even minSize did not fit. */
  truncated: boolean;
  /** True when the drawn text exceeds its box (must never happen). */
  overflow: boolean;
}

export interface RenderReport {
  width: number;
  height: number;
  layers: TextLayerReport[];
  /** Characters no registered font could draw. */
  missingGlyphs: string[];
  /** Layout rules the drawing breaks, when the job asked (checkRules). */
  rules?: RuleViolation[];
  /** Where each layer of the page was drawn, when the job asked (reportBoxes). */
  boxes?: DrawnBox[];
  drawMs: number;
  encodeMs: number;
}

export interface RenderSuccess {
  ok: true;
  bytes: Uint8Array;
  contentType: string;
  report: RenderReport;
}

/** A render failure the user can act on; `path` points at the value at fault (`values.photo`). */
export interface RenderFailure {
  ok: false;
  code: Extract<ErrorCode, 'image-invalid' | 'render-failed' | 'code-unreadable'>;
  message: string;
  path?: string;
  /** Each code that did not scan (code-unreadable), by the value it comes from. */
  problems?: { path: string; message: string; code?: string }[];
}

export type RenderResult = RenderSuccess | RenderFailure;
