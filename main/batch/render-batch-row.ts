import type { BrandProfile } from '../../shared/brand-profile.js';
import { isAppError } from '../../shared/errors.js';
import type { Bindings } from '../../shared/batch-schemas.js';
import type { Template } from '../../shared/template-format.js';
import { templateRatios, type CatalogEntry } from '../catalog/load-catalog.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { OutputFormat, RenderSuccess } from '../render/render-protocol.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { QueuedRow } from './batch-queue.js';
import { rowTarget, sourceRowIndex } from './batch-targets.js';
import { planBindings, valuesForRow, type BindingPlan } from './bindings.js';

/**
 * What every row of one batch shares: the template and brand it pinned, its bindings, and how
 * its images resolve. Built once per batch (per worker, in cluster mode).
 */
export interface BatchRowContext {
  batch: BatchRecord;
  entry: CatalogEntry;
  brand: BrandProfile;
  plan: BindingPlan;
  resolveImage: ImageResolver;
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
    entry,
    brand: batch.brand as BrandProfile,
    plan: planBindings(template, options.fields, batch.bindings as Bindings),
    resolveImage: options.resolveImage,
  };
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
  const { batch, entry, brand, plan, resolveImage } = context;
  const values = valuesForRow(plan, row.record, {
    batchId: batch.id,
    // A row drawn in several sizes counts as its spreadsheet row ({rowNumber}, {rowIndex}).
    rowIndex: sourceRowIndex(batch, row.rowIndex),
    brand,
    today: batch.today,
    locale: entry.template.locale,
  });
  const job = await renderer.prepareWithImageUrls(
    {
      templateId: batch.templateId,
      values,
      target: rowTarget(batch, row.rowIndex),
      format: batch.format as OutputFormat,
      ...(batch.quality !== null ? { quality: batch.quality } : {}),
      ...batch.outputOptions,
    },
    { brand, entry, resolveImage },
  );
  return renderer.run(job, { lane: 'batch', group: batch.id });
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
