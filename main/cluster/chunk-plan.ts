/**
 * How a batch is cut into chunk jobs. A chunk names a range of rows `{ batchId, from, to }`,
 * never their data, so Redis holds a few bytes per thousand rows.
 */
export interface ChunkRange {
  n: number;
  from: number;
  to: number;
}

/**
 * About eight chunks per live render thread, so work spreads over every worker and a lost chunk
 * costs little to redo; at least 50 rows (a job's overhead stays small), at most 1,000.
 */
export function chunkSize(totalRows: number, liveThreads: number): number {
  const threads = Math.max(1, liveThreads);
  return Math.min(1000, Math.max(50, Math.ceil(totalRows / (8 * threads))));
}

/** Chunks of a batch queued at once: about two per live thread, so batches of others interleave. */
export function chunkWindow(liveThreads: number): number {
  return Math.max(2, 2 * Math.max(1, liveThreads));
}

/**
 * `size` rows a chunk. A batch of some rows of its sheet (`rowIndexes`, sorted) keeps their own
 * indexes: each chunk spans `size` of them, from the first to just past the last.
 */
export function planChunks(
  totalRows: number,
  size: number,
  rowIndexes: readonly number[] | null = null,
): ChunkRange[] {
  const chunks: ChunkRange[] = [];
  if (rowIndexes) {
    for (let n = 0, k = 0; k < rowIndexes.length; n += 1, k += size) {
      const last = rowIndexes[Math.min(rowIndexes.length, k + size) - 1]!;
      chunks.push({ n, from: rowIndexes[k]!, to: last + 1 });
    }
    return chunks;
  }
  for (let n = 0, from = 0; from < totalRows; n += 1, from += size)
    chunks.push({ n, from, to: Math.min(totalRows, from + size) });
  return chunks;
}

/** The BullMQ job id of a chunk's k-th dispatch: a repeated add of the same id is a no-op. */
export function chunkJobId(batchId: string, n: number, dispatch: number): string {
  return dispatch <= 1 ? `${batchId}-c${n}` : `${batchId}-c${n}-r${dispatch}`;
}
