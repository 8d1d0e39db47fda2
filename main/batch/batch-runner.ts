import type { BrandProfile } from '../../shared/brand-profile.js';
import { isAppError } from '../../shared/errors.js';
import type { Batch, Bindings } from '../../shared/batch-schemas.js';
import type { Template } from '../../shared/template-format.js';
import type { CatalogEntry } from '../catalog/load-catalog.js';
import { templateRatios } from '../catalog/load-catalog.js';
import { writeFileDurably } from '../files/write-file-durably.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { OutputFormat } from '../render/render-protocol.js';
import type { BatchRecord } from '../store/batches-repository.js';
import type { Store } from '../store/create-store.js';
import { planBindings, valuesForRow, type BindingPlan } from './bindings.js';
import type { BatchEvents } from './batch-events.js';
import type { BatchOutputs } from './batch-outputs.js';
import type { QueuedRow, SourceRecord } from './batch-queue.js';
import { CircuitBreaker, DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker.js';
import { createImagesFolderResolver } from './images-folder.js';
import { BatchFileNamer } from './file-names.js';
import { GroupCommitter } from '../store/group-commit.js';
import { EXTENSIONS } from './batch-outputs.js';
import { toBatchResource } from './batch-resource.js';

/** One source row as a row source yields it. */
export interface SourceRow {
  rowIndex: number;
  line: number | null;
  cells: Record<string, unknown>;
  /** Why the source could not read this row (it then fails alone). */
  problems?: string[];
}

export interface BatchRunnerDeps {
  store: Store;
  renderer: RenderService;
  outputs: BatchOutputs;
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

const INGEST_CHUNK = 500;
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
/**
 * Row commits are grouped over this window. Each commit is an fsync on the API thread; a batch
 * row that waits 50 ms longer to show as done loses nothing (a crash re-renders it, uncharged).
 */
const BATCH_COMMIT_WINDOW_MS = 50;
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Runs batches: reads source rows into the store as they stream in, claims rows with a lease,
 * renders them in the pool's batch lane, and commits each row's output and debit together.
 * Rows are rendered and charged at most once whatever the crash point: the output path is fixed
 * per row (a re-render overwrites it) and the debit is unique per (batch, row).
 */
export class BatchRunner {
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopRequested = new Set<string>();
  private closing = false;
  private readonly committer: GroupCommitter;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.committer = new GroupCommitter(deps.store.db, BATCH_COMMIT_WINDOW_MS);
  }

  /** Continues batches that were queued or running when the process stopped. */
  resume(): void {
    for (const batch of this.deps.store.batches.unfinished()) {
      // The process that leased these rows is gone.
      this.deps.store.batches.releaseExpired(Number.MAX_SAFE_INTEGER, batch.id);
      this.deps.outputs.removeTempFiles(batch.id);
      this.schedule(batch.id);
    }
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
    const { store } = this.deps;
    const batch = store.batches.get(batchId);
    if (!batch || (batch.status !== 'queued' && batch.status !== 'running')) return;
    if (batch.status === 'queued') {
      store.batches.update(batchId, {
        status: 'running',
        startedAt: batch.startedAt ?? new Date().toISOString(),
      });
    }

    const entry: CatalogEntry = {
      template: batch.templateSnapshot as Template,
      assetsDir: batch.assetsDir,
      ratios: templateRatios(batch.templateSnapshot as Template),
      order: 0,
    };
    const brand = batch.brand as BrandProfile;
    const resolveImage = createImagesFolderResolver(
      batch.imagesDir
        ? {
            dir: batch.imagesDir,
            managed: batch.imagesDir === this.deps.outputs.imagesDir(batch.id),
          }
        : null,
      this.deps.resolveImage,
    );
    const breaker = new CircuitBreaker(this.deps.breaker ?? DEFAULT_BREAKER);
    const progress = new ProgressMeter(this.deps.events, () => this.snapshot(batchId));

    let plan: BindingPlan | undefined;
    let stopReason: string | null = null;
    const ingest = batch.ingestComplete ? Promise.resolve() : this.ingest(batch);
    let ingestDone = batch.ingestComplete;
    let ingestError: unknown;
    void ingest.then(
      () => (ingestDone = true),
      (error: unknown) => {
        ingestDone = true;
        ingestError = error;
      },
    );

    const inFlight = new Set<Promise<void>>();
    const committing = new Set<Promise<void>>();
    const leaseMs = this.deps.leaseMs ?? 5 * 60_000;
    // A claim is a write (an fsync): claim rows a few at a time, not one per finished row.
    const claimAtLeast = Math.max(1, Math.floor(this.deps.concurrency / 4));
    while (!stopReason && !this.stopRequested.has(batchId)) {
      const wanted = this.deps.concurrency - inFlight.size;
      const rows =
        wanted >= claimAtLeast ? store.batches.claim(batchId, wanted, Date.now() + leaseMs) : [];
      if (rows.length === 0) {
        if (inFlight.size > 0) {
          await Promise.race(inFlight);
          continue;
        }
        if (ingestDone) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      plan ??= planBindings(
        entry.template,
        this.fieldsOf(batch, rows[0]),
        batch.bindings as Bindings,
      );
      for (const row of rows) {
        // A row leaves the in-flight set when it is drawn and written; its commit is grouped.
        const task = this.renderRow(batch, entry, brand, plan, resolveImage, row).then(
          (outcome) => {
            inFlight.delete(task);
            const tripped = outcome.diskFull ?? breaker.record(outcome.ok);
            if (tripped && !stopReason) stopReason = tripped;
            const commit = outcome.committed
              .then(
                () => progress.tick(),
                (error: unknown) =>
                  this.deps.log?.(`batch ${batchId}: a row could not be committed`, error),
              )
              .finally(() => committing.delete(commit));
            committing.add(commit);
          },
        );
        inFlight.add(task);
      }
      // Native memory is released as the event loop turns; never spin synchronously.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.allSettled(inFlight);
    this.committer.flush();
    await Promise.allSettled(committing);
    await ingest.catch(() => undefined);
    this.finish(batchId, stopReason, ingestError);
    progress.flush();
  }

  private fieldsOf(batch: BatchRecord, first: QueuedRow | undefined): string[] {
    // Records need not share their keys: every key of every record is a field.
    if (batch.sourceType === 'json-array') return this.deps.store.batches.recordFields(batch.id);
    const upload = batch.sourceRef ? this.deps.store.uploads.get(batch.sourceRef) : null;
    const fields = upload?.info.fields;
    return Array.isArray(fields) ? fields.map(String) : Object.keys(first?.record ?? {});
  }

  private async ingest(batch: BatchRecord): Promise<void> {
    const { store } = this.deps;
    let ingested = batch.ingested;
    const namer = new BatchFileNamer(
      batch.fileNamePattern,
      EXTENSIONS[batch.format as OutputFormat],
      store.batches.fileNames(batch.id),
    );
    let chunk: SourceRecord[] = [];
    const flush = () => {
      if (chunk.length === 0) return;
      const rows = chunk;
      store.db.transaction(() => {
        const unreadable = store.batches.enqueue(batch.id, rows);
        const held = store.ledger.heldFor(batch.id);
        if (unreadable > 0 && held > 0)
          store.ledger.release({ batchId: batch.id, amount: Math.min(unreadable, held) });
      })();
      ingested = (chunk.at(-1)?.rowIndex ?? ingested - 1) + 1;
      store.batches.markIngested(batch.id, ingested, false);
      chunk = [];
    };
    for await (const row of await this.deps.openRows(batch)) {
      if (row.rowIndex < batch.ingested) continue;
      const problems = row.problems ?? [];
      chunk.push({
        rowIndex: row.rowIndex,
        line: row.line,
        record: row.cells,
        fileName: namer.name(row.rowIndex, row.cells),
        ...(problems.length > 0
          ? { error: `line ${row.line ?? '?'}: ${problems.join('; ')}` }
          : {}),
      });
      if (chunk.length >= INGEST_CHUNK) {
        flush();
        // Let rendering and the HTTP server run between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    flush();
    store.db.transaction(() => {
      const current = store.batches.get(batch.id);
      if (current && ingested < current.total) {
        // The source turned out shorter than counted at upload: give back the extra holds.
        store.ledger.release({
          batchId: batch.id,
          amount: Math.min(current.total - ingested, store.ledger.heldFor(batch.id)),
        });
        store.batches.update(batch.id, { total: ingested });
      }
      store.batches.markIngested(batch.id, ingested, true);
    })();
  }

  private async renderRow(
    batch: BatchRecord,
    entry: CatalogEntry,
    brand: BrandProfile,
    plan: BindingPlan,
    resolveImage: ImageResolver,
    row: QueuedRow,
  ): Promise<{ ok: boolean; diskFull?: string; committed: Promise<void> }> {
    const { store, renderer, outputs } = this.deps;
    const format = batch.format as OutputFormat;
    let error: string;
    let diskFull: string | undefined;
    try {
      const values = valuesForRow(plan, row.record, {
        batchId: batch.id,
        rowIndex: row.rowIndex,
        brand,
        today: batch.today,
        locale: entry.template.locale,
      });
      const job = renderer.prepare(
        {
          templateId: batch.templateId,
          values,
          target: batch.target,
          format,
          ...(batch.quality !== null ? { quality: batch.quality } : {}),
        },
        { brand, entry, resolveImage },
      );
      const result = await renderer.run(job, { lane: 'batch', group: batch.id });
      const file = outputs.rowFile(batch.id, row.rowIndex, format);
      await writeFileDurably(file, result.bytes);
      const { renderId } = row;
      const outputKey = outputs.outputKey(batch.id, row.rowIndex, format);
      const committed = this.committer.commit(() => {
        if (!store.batches.complete(batch.id, row.rowIndex, { renderId, outputKey })) return;
        store.ledger.settleHeldRow({
          batchId: batch.id,
          rowIndex: row.rowIndex,
          renderId,
          apiKeyId: batch.apiKeyId,
        });
        store.renders.insert({
          id: renderId,
          templateId: batch.templateId,
          ratio: batch.target,
          format,
          apiKeyId: batch.apiKeyId,
          batchId: batch.id,
          rowIndex: row.rowIndex,
          outputKey,
          bytes: result.bytes.byteLength,
        });
      });
      return { ok: true, committed };
    } catch (caught) {
      error = describeRowError(caught);
      const code = (caught as { code?: string }).code;
      if (code && DISK_FULL.has(code)) {
        diskFull = 'the disk is full';
        error =
          'The disk is full, so the image could not be saved. Free some space, then replay the batch.';
      }
    }
    const committed = this.committer.commit(() => {
      if (store.batches.fail(batch.id, row.rowIndex, error) && store.ledger.heldFor(batch.id) > 0) {
        store.ledger.release({ batchId: batch.id, amount: 1 });
      }
    });
    return diskFull ? { ok: false, diskFull, committed } : { ok: false, committed };
  }

  private finish(batchId: string, stopReason: string | null, ingestError: unknown): void {
    const { store } = this.deps;
    store.db.transaction(() => {
      const batch = store.batches.get(batchId);
      if (!batch || batch.status !== 'running') return;
      const counts = store.batches.counts(batchId);
      const ingestFailed = ingestError !== undefined;
      if (this.stopRequested.has(batchId) && !stopReason && !ingestFailed) return; // paused: resumes later
      const unfinished = counts.pending + counts.running;
      if (stopReason || ingestFailed || unfinished > 0) {
        if (stopReason || ingestFailed) {
          const held = store.ledger.heldFor(batchId);
          if (held > 0) store.ledger.release({ batchId, amount: held });
          store.batches.update(batchId, {
            status: 'degraded',
            stoppedReason: stopReason
              ? `Stopped early because ${stopReason}. Fix the cause and replay the batch.`
              : `Reading the source failed: ${describeRowError(ingestError)}`,
            finishedAt: new Date().toISOString(),
          });
        }
        return;
      }
      const held = store.ledger.heldFor(batchId);
      if (held > 0) store.ledger.release({ batchId, amount: held });
      const status =
        counts.failed === 0 ? 'succeeded' : counts.succeeded === 0 ? 'failed' : 'partial';
      store.batches.update(batchId, { status, finishedAt: new Date().toISOString() });
    })();
  }

  private snapshot(batchId: string): Batch | null {
    const batch = this.deps.store.batches.get(batchId);
    return batch ? toBatchResource(batch, 0) : null;
  }
}

/** A row's error as a user reads it in the manifest: what is wrong and where. */
export function describeRowError(error: unknown): string {
  if (isAppError(error)) {
    if (error.problems && error.problems.length > 0) {
      return error.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Publishes progress at most every 250 ms, with a rate over a sliding window. */
class ProgressMeter {
  private last = 0;
  private readonly stamps: number[] = [];

  constructor(
    private readonly events: BatchEvents,
    private readonly snapshot: () => Batch | null,
  ) {}

  tick(): void {
    const now = Date.now();
    this.stamps.push(now);
    while (this.stamps.length > 0 && now - (this.stamps[0] ?? now) > 5000) this.stamps.shift();
    if (now - this.last >= 250) this.flush();
  }

  flush(): void {
    this.last = Date.now();
    const batch = this.snapshot();
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
