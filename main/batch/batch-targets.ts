import type { BatchRecord } from '../data/types/batch-record.js';

/**
 * Several sizes from one run: source row `i` drawn in layout `t` of `targets` is the batch row
 * `i * targets.length + t`, so rows of one source row sit together in the manifest and bundle,
 * and a resumed ingest knows where it stopped from the row count alone.
 */

type Sized = Pick<BatchRecord, 'target' | 'targets'>;

/** How many images each source row makes. */
export function imagesPerRow(batch: Pick<BatchRecord, 'targets'>): number {
  return batch.targets?.length ?? 1;
}

/** The layout a batch row is drawn in. */
export function rowTarget(batch: Sized, rowIndex: number): string {
  return batch.targets
    ? (batch.targets[rowIndex % batch.targets.length] ?? batch.target)
    : batch.target;
}

/** The spreadsheet row a batch row comes from (its number, generated values and errors). */
export function sourceRowIndex(batch: Pick<BatchRecord, 'targets'>, rowIndex: number): number {
  return Math.floor(rowIndex / imagesPerRow(batch));
}

/**
 * How many rows the batch's source has: kept when the batch was made (a batch of chosen rows
 * keeps its sheet's count, so "n of N" reads as in the first run); counted from the batch's
 * own rows for a batch made before it was kept.
 */
export function batchSourceTotal(
  batch: Pick<BatchRecord, 'targets' | 'total' | 'sourceTotal'>,
): number {
  return batch.sourceTotal ?? Math.floor(batch.total / imagesPerRow(batch));
}

/**
 * The batch rows a batch of some rows of its sheet (`sourceRows`) draws, in order: each chosen
 * row once per size. Null when the batch draws every row (0 to total).
 */
export function chosenBatchRows(
  batch: Pick<BatchRecord, 'targets' | 'sourceRows'>,
): number[] | null {
  if (!batch.sourceRows) return null;
  const per = imagesPerRow(batch);
  return batch.sourceRows.flatMap((row) => Array.from({ length: per }, (_, t) => row * per + t));
}
