import type { CoreData } from '../data/core-data.js';
import type { OutputFormat } from '../render/render-protocol.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { SourceRecord } from './batch-queue.js';
import { imagesPerRow, rowTarget } from './batch-targets.js';
import { BatchFileNamer } from './file-names.js';
import { EXTENSIONS } from './output-address.js';

/**
 * A row of a batch's source, as every mode reads it: a spreadsheet row (with its line and any
 * problems reading it), or a json-array record (no line).
 */
export interface SourceRow {
  rowIndex: number;
  line: number | null;
  cells: Record<string, unknown>;
  /** Why the source could not read this row (it then fails alone). */
  problems?: readonly string[];
}

/** A row the source could not read fails with this error (its line and what was wrong). */
export function readError(row: SourceRow): string | undefined {
  const problems = row.problems ?? [];
  return problems.length > 0 ? `line ${row.line ?? '?'}: ${problems.join('; ')}` : undefined;
}

/** What turning source rows into batch rows needs of the batch. */
export type IngestShape = Pick<BatchRecord, 'target' | 'targets'>;

/**
 * The batch rows of one source row: one per size (`targets`, numbered as batch-targets.ts says),
 * each with its file name, and the row's read problems as its error.
 */
export function batchRowsOf(
  batch: IngestShape,
  namer: BatchFileNamer,
  row: SourceRow,
): SourceRecord[] {
  const per = imagesPerRow(batch);
  const problems = row.problems ?? [];
  const error = problems.length > 0 ? `line ${row.line ?? '?'}: ${problems.join('; ')}` : undefined;
  return Array.from({ length: per }, (_, t) => ({
    rowIndex: row.rowIndex * per + t,
    line: row.line,
    record: row.cells,
    fileName: batch.targets
      ? namer.nameIn(row.rowIndex, row.cells, rowTarget(batch, t))
      : namer.name(row.rowIndex, row.cells),
    ...(error !== undefined ? { error } : {}),
  }));
}

/** The namer of a batch being read: it knows the names its rows stored so far already took. */
export async function batchFileNamer(data: CoreData, batch: BatchRecord): Promise<BatchFileNamer> {
  return new BatchFileNamer(
    batch.fileNamePattern,
    EXTENSIONS[batch.format as OutputFormat],
    await data.batches.fileNames(batch.id),
  );
}

const INGEST_CHUNK = 500;

/**
 * Reads a batch's source rows into the data port, in chunks, from where a previous reading
 * stopped (rows already stored are skipped, never stored twice), and marks the ingest complete.
 * The embedded runner and a cluster's API node read sources the same way; `afterChunk` lets each
 * go on with its own work between chunks (yield to the HTTP server, queue chunks to workers).
 */
export async function ingestSourceRows(
  data: CoreData,
  batch: BatchRecord,
  rows: AsyncIterable<SourceRow>,
  afterChunk: () => Promise<void>,
): Promise<void> {
  const namer = await batchFileNamer(data, batch);
  const per = imagesPerRow(batch);
  let ingested = batch.ingested;
  let chunk: SourceRecord[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const stored = chunk;
    chunk = [];
    ingested = (stored.at(-1)?.rowIndex ?? ingested - 1) + 1;
    await data.commands.ingestRows(batch.id, stored, ingested);
    await afterChunk();
  };
  for await (const row of rows) {
    if (row.rowIndex * per < batch.ingested) continue;
    chunk.push(...batchRowsOf(batch, namer, row));
    if (chunk.length >= INGEST_CHUNK) await flush();
  }
  await flush();
  await data.commands.completeIngest(batch.id, ingested);
}
