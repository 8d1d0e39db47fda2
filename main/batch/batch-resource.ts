import type { Batch } from '../../shared/batch-schemas.js';
import type { Ratio } from '../../shared/template-format.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import { batchSheetParts } from './sheet-parts.js';

/**
 * The batch as the API shows it (spec §2.5 plus progress fields). Built from the batch's own
 * counters, so polling a 10,000-row batch costs one indexed read; only a cancelled batch needs
 * its cancelled rows counted.
 */
export function toBatchResource(
  batch: BatchRecord,
  cancelledRows: number,
  outputDir?: string,
  sourceName?: string | null,
): Batch {
  const templateName = snapshotName(batch.templateSnapshot);
  const sheetParts = batchSheetParts(batch);
  return {
    id: batch.id,
    status: batch.status,
    templateId: batch.templateId,
    ...(templateName ? { templateName } : {}),
    ...(sourceName ? { sourceName } : {}),
    templateVersion: batch.templateVersion,
    target: batch.target as Ratio,
    format: batch.format,
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    pending: Math.max(0, batch.total - batch.succeeded - batch.failed - cancelledRows),
    ...(batch.rejectedReason ? { rejectedReason: batch.rejectedReason } : {}),
    ...(batch.stoppedReason ? { stoppedReason: batch.stoppedReason } : {}),
    createdAt: batch.createdAt,
    startedAt: batch.startedAt,
    finishedAt: batch.finishedAt,
    ...(outputDir ? { outputDir } : {}),
    ...(batch.sheetOptions ? { sheets: batch.sheetOptions } : {}),
    ...(sheetParts ? { sheetParts } : {}),
    ...(batch.targets ? { targets: batch.targets } : {}),
    ...(batch.sourceRows ? { someRows: true as const } : {}),
    ...(batch.outputOptions.verifyCodes ? { verifyCodes: true as const } : {}),
  };
}

/**
 * The spreadsheet's file name, part of the batch's readable name; null for inline rows. Every
 * path that shows a batch (the API, the runner's events, a cluster node's) asks this the same.
 */
export async function batchSourceName(
  uploads: { get(id: string): Promise<{ filename: string } | null> },
  batch: Pick<BatchRecord, 'sourceRef'>,
): Promise<string | null> {
  if (!batch.sourceRef) return null;
  return (await uploads.get(batch.sourceRef))?.filename ?? null;
}

/** The template's name as the batch pinned it (a template renamed later keeps its batches' name). */
function snapshotName(snapshot: unknown): string | null {
  if (typeof snapshot !== 'object' || snapshot === null) return null;
  const name = (snapshot as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}
