import type { Batch } from '../../shared/batch-schemas.js';
import type { CoreData } from '../data/core-data.js';
import type { RowOutcome } from '../data/data-commands.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { OutputFormat } from '../render/render-protocol.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { BatchEvents } from './batch-events.js';
import type { BatchOutputs } from './batch-outputs.js';
import type { QueuedRow } from './batch-queue.js';
import { batchSourceName, toBatchResource } from './batch-resource.js';
import { drawBatchSheets } from './batch-sheets.js';
import type { BatchWork } from './batch-work.js';
import { BatchBreaker } from './batch-breaker.js';
import { DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker.js';
import { createImagesFolderResolver } from './images-folder.js';
import { contentTypeOf, sheetPartKey } from './output-address.js';
import { rowFailure, sheetsStopReason } from './row-failure.js';
import { RowOutcomes } from './row-outcomes.js';
import { storeBatchRow } from './store-batch-row.js';
import { ingestSourceRows, type SourceRow } from './source-records.js';
import { batchRowContext, describeRowError, type BatchRowContext } from './render-batch-row.js';

export { describeRowError } from './render-batch-row.js';

/** One source row as a row source yields it. */
export interface BatchRunnerDeps {
  data: CoreData;
  renderer: RenderService;
  /** The folder of the batch's unpacked images and a dead process's leftovers. */
  outputs: BatchOutputs;
  /** Where rows and sheet parts are written, at the keys output-address.ts gives them. */
  objects: ObjectStore;
  events: BatchEvents;
  /** Streams the rows of an uploaded csv/xlsx source, starting anywhere (a resumed ingest skips). */
  openRows: (batch: BatchRecord) => Promise<AsyncIterable<SourceRow>>;
  resolveImage: ImageResolver;
  /** Rows in flight per batch: in the pool, or being written to disk (batchRowsInFlight). */
  concurrency: number;
  leaseMs?: number;
  breaker?: CircuitBreakerOptions;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * Rows of a batch finish in the pool's batch lane (two per thread keep every thread busy) and are
 * then written and synced to disk, which takes milliseconds on libuv's threads. Counting only the
 * pool's share, the threads waited for rows ~15 % of the time while others were being synced;
 * four per thread cover both. Single renders are not delayed by this: the pool hands a thread at
 * most two jobs and serves its interactive lane first.
 */
export function batchRowsInFlight(threads: number): number {
  return threads * 4;
}
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Runs batches in this process (embedded mode): reads source rows into the store as they stream
 * in, claims rows with a lease, renders them in the pool's batch lane, and commits each row's
 * output and debit together. Rows are rendered and charged at most once whatever the crash
 * point: the output path is fixed per row (a re-render overwrites it) and the debit is unique
 * per (batch, row).
 */
export class BatchRunner implements BatchWork {
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopRequested = new Set<string>();
  private closing = false;

  constructor(private readonly deps: BatchRunnerDeps) {}

  /** Continues batches that were queued or running when the process stopped. */
  async resume(): Promise<void> {
    for (const batch of await this.deps.data.batches.unfinished()) {
      // The process that leased these rows is gone.
      await this.deps.data.batches.releaseExpired(Number.MAX_SAFE_INTEGER, batch.id);
      this.deps.outputs.removeTempFiles(batch.id);
      this.schedule(batch.id);
    }
  }

  start(batch: BatchRecord): Promise<void> {
    this.schedule(batch.id);
    return Promise.resolve();
  }

  removed(batchId: string): Promise<void> {
    this.deps.outputs.removeBatch(batchId);
    return Promise.resolve();
  }

  schedule(batchId: string): void {
    if (this.closing || this.active.has(batchId)) return;
    const work = this.run(batchId)
      .catch((error: unknown) => this.deps.log?.(`batch ${batchId} stopped unexpectedly`, error))
      .finally(() => this.active.delete(batchId));
    this.active.set(batchId, work);
  }

  /** Stops claiming rows for this batch; rows in flight finish and are committed. */
  async stop(batchId: string): Promise<void> {
    this.stopRequested.add(batchId);
    await this.active.get(batchId);
    this.stopRequested.delete(batchId);
  }

  isRunning(batchId: string): boolean {
    return this.active.has(batchId);
  }

  /** Lets rows in flight finish, then returns; unfinished batches resume at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    for (const id of this.active.keys()) this.stopRequested.add(id);
    await Promise.allSettled([...this.active.values()]);
  }

  private async run(batchId: string): Promise<void> {
    const { data } = this.deps;
    let batch = await data.batches.get(batchId);
    if (!batch || (batch.status !== 'queued' && batch.status !== 'running')) return;
    if (batch.status === 'queued') {
      await data.batches.update(batchId, {
        status: 'running',
        startedAt: batch.startedAt ?? new Date().toISOString(),
      });
      batch = { ...batch, status: 'running' };
    }
    const running = batch;
    const resolveImage = createImagesFolderResolver(
      running.imagesDir
        ? {
            dir: running.imagesDir,
            managed: running.imagesDir === this.deps.outputs.imagesDir(running.id),
          }
        : null,
      this.deps.resolveImage,
    );
    // Kept with the batch: a resumed batch remembers the rows before the restart.
    const breaker = new BatchBreaker(data, batchId, this.deps.breaker ?? DEFAULT_BREAKER);
    const progress = new ProgressMeter(this.deps.events, () => this.snapshot(batchId));
    const commits = new RowOutcomes(
      data,
      {
        batchId,
        templateId: running.templateId,
        ratio: running.target,
        format: running.format as OutputFormat,
        apiKeyId: running.apiKeyId,
      },
      data.commitGroup,
      async (group) => {
        for (let i = 0; i < group.length; i += 1) progress.tick();
        const tripped = await breaker.committed(group);
        if (tripped && !stopReason) stopReason = tripped;
      },
    );

    let context: BatchRowContext | undefined;
    let stopReason: string | null = null;
    const ingest = running.ingestComplete ? Promise.resolve() : this.ingest(running);
    let ingestDone = running.ingestComplete;
    let ingestError: unknown;
    void ingest.then(
      () => (ingestDone = true),
      (error: unknown) => {
        ingestDone = true;
        ingestError = error;
      },
    );

    const inFlight = new Set<Promise<void>>();
    const leaseMs = this.deps.leaseMs ?? 5 * 60_000;
    // A claim is a write (an fsync): claim rows a few at a time, not one per finished row.
    const claimAtLeast = Math.max(1, Math.floor(this.deps.concurrency / 4));
    while (!stopReason && !this.stopRequested.has(batchId)) {
      const wanted = this.deps.concurrency - inFlight.size;
      const rows =
        wanted >= claimAtLeast
          ? await data.batches.claim(batchId, wanted, Date.now() + leaseMs)
          : [];
      if (rows.length === 0) {
        if (inFlight.size > 0) {
          await Promise.race(inFlight);
          continue;
        }
        if (ingestDone) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      context ??= batchRowContext(running, {
        assetsDir: running.assetsDir,
        fields: await this.fieldsOf(running, rows[0]),
        resolveImage,
      });
      for (const row of rows) {
        // A row leaves the in-flight set when it is drawn and written; its commit is grouped.
        const task = this.renderRow(context, row).then((outcome) => {
          inFlight.delete(task);
          const tripped = outcome.diskFull ?? breaker.finished(outcome.result);
          if (tripped && !stopReason) stopReason = tripped;
          commits.add(outcome.result);
        });
        inFlight.add(task);
      }
      // Native memory is released as the event loop turns; never spin synchronously.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.allSettled(inFlight);
    await commits.flush();
    // Rows whose commit failed stay leased: they render again when the batch resumes.
    if (commits.failure)
      this.deps.log?.(`batch ${batchId}: rows could not be committed`, commits.failure.error);
    await ingest.catch(() => undefined);
    if (running.sheetOptions && !stopReason && !this.stopRequested.has(batchId) && ingestDone) {
      try {
        context ??= batchRowContext(running, {
          assetsDir: running.assetsDir,
          fields: await this.fieldsOf(running, undefined),
          resolveImage,
        });
        await this.drawSheets(context);
      } catch (error) {
        stopReason = sheetsStopReason(error);
        this.deps.log?.(`batch ${batchId}: the sheets could not be drawn`, error);
      }
    }
    await data.commands.finishBatch({
      batchId,
      stopReason,
      ingestError: ingestError === undefined ? null : describeRowError(ingestError),
      pausing: this.stopRequested.has(batchId),
    });
    await progress.flush();
  }

  /** The batch's sheet parts, drawn once its rows are done, beside the rows' files. */
  private async drawSheets(context: BatchRowContext): Promise<void> {
    const { objects } = this.deps;
    const batchId = context.batch.id;
    await drawBatchSheets(
      {
        data: this.deps.data,
        renderer: this.deps.renderer,
        parallel: Math.max(1, Math.floor(this.deps.concurrency / 4)),
        writePart: (part, bytes) =>
          objects.put(sheetPartKey(batchId, part), bytes, { contentType: contentTypeOf('pdf') }),
      },
      context,
    );
  }

  private async fieldsOf(batch: BatchRecord, first: QueuedRow | undefined): Promise<string[]> {
    // Records need not share their keys: every key of every record is a field.
    if (batch.sourceType === 'json-array') return this.deps.data.batches.recordFields(batch.id);
    const upload = batch.sourceRef ? await this.deps.data.uploads.get(batch.sourceRef) : null;
    const fields = upload?.info.fields;
    return Array.isArray(fields) ? fields.map(String) : Object.keys(first?.record ?? {});
  }

  private async ingest(batch: BatchRecord): Promise<void> {
    // Let rendering and the HTTP server run between chunks.
    await ingestSourceRows(
      this.deps.data,
      batch,
      await this.deps.openRows(batch),
      () => new Promise((resolve) => setImmediate(resolve)),
    );
  }

  private async renderRow(
    context: BatchRowContext,
    row: QueuedRow,
  ): Promise<{ result: RowOutcome; diskFull?: string }> {
    const stored = await storeBatchRow(this.deps, context, row);
    if ('outcome' in stored) return { result: stored.outcome };
    const code = (stored.storeFailed as { code?: string }).code;
    if (code && DISK_FULL.has(code)) {
      return {
        diskFull: 'the disk is full',
        result: {
          ok: false,
          rowIndex: row.rowIndex,
          error:
            'The disk is full, so the image could not be saved. Free some space, then replay the batch.',
          errorCode: 'disk-full',
          fields: [],
        },
      };
    }
    return { result: { ok: false, rowIndex: row.rowIndex, ...rowFailure(stored.storeFailed) } };
  }

  private async snapshot(batchId: string): Promise<Batch | null> {
    const batch = await this.deps.data.batches.get(batchId);
    return batch
      ? toBatchResource(batch, 0, undefined, await batchSourceName(this.deps.data.uploads, batch))
      : null;
  }
}

/** Publishes progress at most every 250 ms, with a rate over a sliding window. */
class ProgressMeter {
  private last = 0;
  private readonly stamps: number[] = [];

  constructor(
    private readonly events: BatchEvents,
    private readonly snapshot: () => Promise<Batch | null>,
  ) {}

  tick(): void {
    const now = Date.now();
    this.stamps.push(now);
    while (this.stamps.length > 0 && now - (this.stamps[0] ?? now) > 5000) this.stamps.shift();
    if (now - this.last >= 250) void this.flush();
  }

  async flush(): Promise<void> {
    this.last = Date.now();
    const batch = await this.snapshot();
    if (!batch) return;
    const first = this.stamps[0];
    const span = first !== undefined ? (Date.now() - first) / 1000 : 0;
    const rowsPerSecond = span > 0.2 ? this.stamps.length / span : 0;
    const left = batch.total - batch.succeeded - batch.failed;
    this.events.publish({
      batch,
      rowsPerSecond: Math.round(rowsPerSecond * 10) / 10,
      secondsLeft: rowsPerSecond > 0 ? Math.ceil(left / rowsPerSecond) : null,
    });
  }
}
