import type { BrandProfile } from '../../shared/brand-profile.js';
import { isAppError } from '../../shared/errors.js';
import type { Bindings } from '../../shared/batch-schemas.js';
import type { Template } from '../../shared/template-format.js';
import { templateRatios, type CatalogEntry } from '../catalog/load-catalog.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { BrandFill } from '../engine/resolve-values.js';
import type {
  CustomFontFace,
  OutputFormat,
  RenderJob,
  RenderSuccess,
} from '../render/render-protocol.js';
import type { BatchOutputOptions, BatchRecord } from '../data/types/batch-record.js';
import type { QueuedRow } from './batch-queue.js';
import { batchSourceTotal, rowTarget, sourceRowIndex } from './batch-targets.js';
import { planBindings, valuesForRow, type BindingPlan } from './bindings.js';

/**
 * What every row of one run shares, whether a batch draws it, pre-flight checks it or the
 * command line's cache hashes it: the template and brand it pinned, its bindings, how its images
 * resolve, and what its jobs are made of. One row goes from cells to a render job the same way
 * in every mode (prepareRow), so a batch row, its pre-flight and its cache key agree.
 */
export interface RowContext {
  /** Generated values (`{batchId}`) see this id: the batch's, or 'preflight' / 'cli'. */
  batchId: string;
  today: string;
  /** How many rows the source has, as `{ generated: total }` gives it to every row. */
  sourceTotal: number;
  templateId: string;
  format: OutputFormat;
  quality: number | null;
  outputOptions: BatchOutputOptions;
  /** One layout (`target`) or several (`targets`, numbered as batch-targets.ts says). */
  sizes: Pick<BatchRecord, 'target' | 'targets'>;
  entry: CatalogEntry;
  brand: BrandProfile;
  plan: BindingPlan;
  resolveImage: ImageResolver;
}

/** A batch's row context: the batch itself, and what its rows share. Built once per batch. */
export interface BatchRowContext extends RowContext {
  batch: BatchRecord;
}

export function batchRowContext(
  batch: BatchRecord,
  options: { assetsDir: string; fields: string[]; resolveImage: ImageResolver },
): BatchRowContext {
  const template = batch.templateSnapshot as Template;
  const entry: CatalogEntry = {
    template,
    assetsDir: options.assetsDir,
    ratios: templateRatios(template),
    order: 0,
  };
  return {
    batch,
    batchId: batch.id,
    today: batch.today,
    sourceTotal: batchSourceTotal(batch),
    templateId: batch.templateId,
    format: batch.format as OutputFormat,
    quality: batch.quality,
    outputOptions: batch.outputOptions,
    sizes: batch,
    entry,
    brand: batch.brand as BrandProfile,
    plan: planBindings(template, options.fields, batch.bindings as Bindings),
    resolveImage: options.resolveImage,
  };
}

/** What a caller may add to one row's preparation. */
export interface PrepareRowOptions {
  /** The layout to draw (a sheet's rows: the print layout); the row's size by default. */
  target?: string;
  /** Resolves (and may record) the row's images instead of the context's resolver. */
  resolveImage?: ImageResolver;
  /** Receives where omitted brand-bound values came from (pre-flight's warnings). */
  brandFill?: BrandFill[];
  /** The custom fonts, read once by a caller preparing many rows. */
  customFonts?: CustomFontFace[];
}

/**
 * One row's cells to a render job, validated (bindings to values, brand, images resolved or
 * fetched, fonts) but not drawn: the one step every mode takes from a source row to the engine.
 */
export function prepareRow(
  renderer: RenderService,
  context: RowContext,
  row: Pick<QueuedRow, 'rowIndex' | 'record'>,
  options: PrepareRowOptions = {},
): Promise<RenderJob> {
  const { entry, brand, plan, sizes } = context;
  const values = valuesForRow(plan, row.record, {
    batchId: context.batchId,
    // A row drawn in several sizes counts as its spreadsheet row ({rowNumber}, {rowIndex}).
    rowIndex: sourceRowIndex(sizes, row.rowIndex),
    brand,
    today: context.today,
    sourceTotal: context.sourceTotal,
    locale: entry.template.locale,
  });
  return renderer.prepareWithImageUrls(
    {
      templateId: context.templateId,
      values,
      target: options.target ?? rowTarget(sizes, row.rowIndex),
      format: context.format,
      ...(context.quality !== null ? { quality: context.quality } : {}),
      ...context.outputOptions,
    },
    {
      brand,
      entry,
      resolveImage: options.resolveImage ?? context.resolveImage,
      ...(options.brandFill ? { brandFill: options.brandFill } : {}),
      ...(options.customFonts ? { customFonts: options.customFonts } : {}),
    },
  );
}

/**
 * Draws one row exactly as the single endpoint would draw its values: the same preparation, the
 * same engine, so a batch row and a single render of the same values are the same bytes.
 */
export async function renderBatchRow(
  renderer: RenderService,
  context: BatchRowContext,
  row: QueuedRow,
): Promise<RenderSuccess> {
  const job = await prepareRow(renderer, context, row);
  return renderer.run(job, { lane: 'batch', group: context.batchId });
}

/** A row's error as a user reads it in the manifest: what is wrong and where. */
export function describeRowError(error: unknown): string {
  if (isAppError(error)) {
    if (error.problems && error.problems.length > 0) {
      return error.problems
        .map((p) => `${p.path}: ${p.message}${p.code ? ` [${p.code}]` : ''}`)
        .join('; ');
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
