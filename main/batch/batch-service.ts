import type { Readable } from 'node:stream';
import {
  TERMINAL_STATUSES,
  type Batch,
  type CreateBatchRequest,
  type ManifestRow,
  type RowStatus,
} from '../../shared/batch-schemas.js';
import { AppError, Errors, type Problem } from '../../shared/errors.js';
import { brandProfileFor } from '../brand/named-brand.js';
import type { RenderService } from '../render/render-service.js';
import type { BatchRecord } from '../store/batches-repository.js';
import type { Store } from '../store/create-store.js';
import { toBatchResource } from './batch-resource.js';
import type { BatchOutputs } from './batch-outputs.js';
import type { BatchRunner } from './batch-runner.js';
import { planBindings } from './bindings.js';
import { createBundleStream, plannedSizes, type BundleEntry } from './bundle-writer.js';
import { BatchFileNamer, bundleEntryNames, fieldsInPattern } from './file-names.js';
import { checkImagesDir } from './images-folder.js';
import { EXTENSIONS } from './batch-outputs.js';
import { csvLine } from './spreadsheet-safety.js';

export interface BatchServiceDeps {
  store: Store;
  renderer: RenderService;
  runner: BatchRunner;
  outputs: BatchOutputs;
  /** Rows of an upload's sheet other than the one inspected at upload time. */
  countRows: (
    uploadId: string,
    sheet: string | number | undefined,
  ) => Promise<{ rows: number; fields: string[] }>;
  /** Unpacks an uploaded zip of images into a folder the batch owns; returns the folder. */
  unpackImages: (uploadId: string, destination: string) => Promise<string>;
  /** Folders no `imagesDir` may be, be inside or contain (the data folder). */
  protectedDirs: readonly string[];
}

/** manifest.csv's error for a succeeded row whose file is gone. */
const MISSING_OUTPUT =
  'output file missing from the data folder (removed after rendering), so it is not in this zip';

/** Batch operations behind the /v1/render-batches routes (spec §3, §4.3; DESIGN §4). */
export class BatchService {
  constructor(private readonly deps: BatchServiceDeps) {}

  async create(request: CreateBatchRequest, apiKeyId: string | null): Promise<Batch> {
    const { store, renderer } = this.deps;
    const entry = renderer.entry(request.templateId);
    const target = renderer.ratioFor(entry, request.target);
    // Pinned now: editing the brand while the batch runs must not change rows not yet drawn.
    const brand = brandProfileFor(store.brandProfiles, request.brand);
    const source = await this.describeSource(request);
    planBindings(entry.template, source.fields, request.bindings ?? {});
    if (request.fileNamePattern) {
      const unknown = fieldsInPattern(request.fileNamePattern).filter(
        (f) => !source.fields.includes(f),
      );
      if (unknown.length > 0) {
        throw Errors.validation([
          {
            path: 'fileNamePattern',
            message: `the source has no field ${unknown.map((f) => `"${f}"`).join(', ')}; fields are ${source.fields.join(', ')}`,
          },
        ]);
      }
    }
    const imagesDir = await this.imagesFolder(request, store.batches.newId());
    const id = imagesDir.batchId;
    const now = new Date();
    const batch = store.db.transaction(() => {
      store.batches.create({
        id,
        templateId: entry.template.id,
        templateSnapshot: entry.template,
        templateVersion: entry.version ?? null,
        assetsDir: entry.assetsDir,
        target,
        format: request.format,
        quality: request.quality ?? null,
        sourceType: request.sourceType,
        sourceRef: 'sourceRef' in request.source ? request.source.sourceRef : null,
        sheet: source.sheet ?? null,
        bindings: request.bindings ?? {},
        fileNamePattern: request.fileNamePattern ?? null,
        imagesDir: imagesDir.dir,
        brand,
        today: now.toISOString().slice(0, 10),
        status: 'queued',
        total: source.total,
        rejectedReason: null,
        apiKeyId,
        createdAt: now.toISOString(),
      });
      if ('records' in request.source) {
        const namer = new BatchFileNamer(
          request.fileNamePattern ?? null,
          EXTENSIONS[request.format],
        );
        store.batches.enqueue(
          id,
          request.source.records.map((record, rowIndex) => ({
            rowIndex,
            line: null,
            record,
            fileName: namer.name(rowIndex, record),
          })),
        );
        store.batches.markIngested(id, source.total, true);
      } else {
        store.uploads.markUsed(request.source.sourceRef);
      }
      if (store.ledger.account().balance < source.total) {
        // Spec §4.3 rule 7: no row renders, and the batch says why.
        store.batches.update(id, {
          status: 'failed',
          rejectedReason: 'insufficient-credits',
          finishedAt: now.toISOString(),
        });
      } else {
        store.ledger.hold({ batchId: id, amount: source.total, note: `Batch ${id}` });
      }
      return store.batches.get(id) as BatchRecord;
    })();
    if (batch.status === 'queued') this.deps.runner.schedule(id);
    return this.resource(batch);
  }

  get(id: string): Batch {
    return this.resource(this.record(id));
  }

  /** Newest first; with `apiKeyId`, only the batches that key created. */
  list(limit: number, apiKeyId: string | null = null): Batch[] {
    return this.deps.store.batches
      .list({ limit, ...(apiKeyId !== null ? { apiKeyId } : {}) })
      .map((batch) => this.resource(batch));
  }

  manifest(
    id: string,
    cursor: number,
    limit: number,
    status?: RowStatus,
  ): { rows: ManifestRow[]; nextCursor: string | null } {
    this.record(id);
    const rows = this.deps.store.batches.manifest(id, cursor, limit + 1, status);
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? rows[limit] : undefined;
    return { rows: page, nextCursor: next ? String(next.rowIndex) : null };
  }

  async cancel(id: string): Promise<Batch> {
    const batch = this.record(id);
    if (isTerminal(batch)) return this.resource(batch);
    await this.deps.runner.stop(id);
    const { store } = this.deps;
    store.db.transaction(() => {
      const current = store.batches.get(id);
      if (!current || isTerminal(current)) return;
      store.batches.cancelPending(id);
      const held = store.ledger.heldFor(id);
      if (held > 0) store.ledger.release({ batchId: id, amount: held, note: 'Cancelled' });
      store.batches.update(id, { status: 'cancelled', finishedAt: new Date().toISOString() });
    })();
    return this.get(id);
  }

  replay(id: string): Batch {
    const { store } = this.deps;
    const batch = this.record(id);
    if (!isTerminal(batch)) {
      throw new AppError(
        'batch-not-terminal',
        `Batch ${id} is still ${batch.status}; replay it once it has finished.`,
      );
    }
    store.db.transaction(() => {
      const counts = store.batches.counts(id);
      const notIngested = batch.ingestComplete ? 0 : Math.max(0, batch.total - batch.ingested);
      const toRender = counts.pending + counts.failed + counts.cancelled + notIngested;
      if (toRender === 0) {
        throw new AppError(
          'nothing-to-replay',
          `Every row of batch ${id} succeeded; there is nothing to replay.`,
        );
      }
      store.ledger.hold({ batchId: id, amount: toRender, note: `Replay of batch ${id}` });
      store.batches.requeueForReplay(id);
      store.batches.update(id, {
        status: 'queued',
        finishedAt: null,
        stoppedReason: null,
        rejectedReason: null,
      });
    })();
    this.deps.runner.schedule(id);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const batch = this.record(id);
    if (!isTerminal(batch)) await this.cancel(id);
    this.deps.store.batches.remove(id);
    this.deps.outputs.removeBatch(id);
  }

  /** Throws 422 bundle-not-ready while the batch is live. */
  assertBundleReady(id: string): BatchRecord {
    const batch = this.record(id);
    if (!isTerminal(batch)) {
      throw new AppError(
        'bundle-not-ready',
        `Batch ${id} is ${batch.status}; the bundle is available once it has finished.`,
        { extensions: { batchStatus: batch.status } },
      );
    }
    return batch;
  }

  /**
   * A streaming zip of every succeeded output, optionally with manifest.csv. An output missing
   * from disk (removed from the data folder by hand) is left out and listed in `missingRows`;
   * manifest.csv says so on its row. `onError` hears of a file that goes missing mid-download.
   */
  async bundle(
    id: string,
    withManifest: boolean,
    options: { onError?: (error: Error) => void } = {},
  ): Promise<{ stream: Readable; missingRows: number[] }> {
    const batch = this.assertBundleReady(id);
    const extension = EXTENSIONS[batch.format];
    const rows = [...this.deps.store.batches.succeededRows(id)];
    const names = bundleEntryNames(rows, extension);
    const files = rows.map((row) => this.deps.outputs.rowFile(id, row.rowIndex, batch.format));
    const sizes = await plannedSizes(files);
    const entries: BundleEntry[] = [];
    const fileNames = new Map<number, string>();
    const missingRows: number[] = [];
    rows.forEach((row, i) => {
      const size = sizes[i];
      if (size === null || size === undefined) {
        missingRows.push(row.rowIndex);
        return;
      }
      const name = names[i]!;
      fileNames.set(row.rowIndex, name);
      entries.push({ name, file: files[i]!, size });
    });
    const extras = withManifest
      ? [{ name: 'manifest.csv', content: this.manifestCsv(id, fileNames, new Set(missingRows)) }]
      : [];
    return { stream: createBundleStream(entries, extras, options), missingRows };
  }

  private manifestCsv(
    id: string,
    fileNames: Map<number, string>,
    missingRows: ReadonlySet<number>,
  ): Buffer {
    const lines = ['\ufeff' + csvLine(['rowIndex', 'status', 'file', 'error'])];
    let cursor = 0;
    for (;;) {
      const rows = this.deps.store.batches.manifest(id, cursor, 1000);
      for (const row of rows) {
        const error = missingRows.has(row.rowIndex) ? MISSING_OUTPUT : (row.error ?? '');
        lines.push(csvLine([row.rowIndex, row.status, fileNames.get(row.rowIndex) ?? '', error]));
      }
      const last = rows.at(-1);
      if (!last || rows.length < 1000) break;
      cursor = last.rowIndex + 1;
    }
    return Buffer.from(lines.join(''), 'utf8');
  }

  private record(id: string): BatchRecord {
    const batch = /^bat_[A-Za-z0-9_-]{1,64}$/.test(id) ? this.deps.store.batches.get(id) : null;
    if (!batch) throw Errors.notFound('batch', id);
    return batch;
  }

  private cancelledRows(batch: BatchRecord): number {
    return batch.status === 'cancelled' ? this.deps.store.batches.counts(batch.id).cancelled : 0;
  }

  private resource(batch: BatchRecord): Batch {
    return toBatchResource(batch, this.cancelledRows(batch), this.deps.outputs.batchDir(batch.id));
  }

  private async describeSource(
    request: CreateBatchRequest,
  ): Promise<{ fields: string[]; total: number; sheet?: string }> {
    const problems: Problem[] = [];
    if (request.sourceType === 'json-array') {
      if (!('records' in request.source)) {
        throw Errors.validation([
          {
            path: 'source.records',
            message: 'json-array sources carry their rows in source.records',
          },
        ]);
      }
      const fields = new Set<string>();
      for (const record of request.source.records)
        for (const key of Object.keys(record)) fields.add(key);
      return { fields: [...fields], total: request.source.records.length };
    }
    if (!('sourceRef' in request.source)) {
      throw Errors.validation([
        {
          path: 'source.sourceRef',
          message: `${request.sourceType} sources name an upload: { "sourceRef": "upl_…" } from POST /v1/uploads`,
        },
      ]);
    }
    const upload = this.deps.store.uploads.get(request.source.sourceRef);
    if (!upload)
      problems.push({
        path: 'source.sourceRef',
        message: `no upload "${request.source.sourceRef}" (uploads expire after 24 hours unless a batch uses them)`,
      });
    else if (upload.kind !== request.sourceType) {
      problems.push({
        path: 'sourceType',
        message: `the upload is ${upload.kind}, not ${request.sourceType}`,
      });
    }
    if (problems.length > 0 || !upload) throw Errors.validation(problems);
    const sheet = request.source.sheet;
    const info = upload.info as {
      rows?: number;
      fields?: string[];
      sheet?: string;
      sheets?: { name: string; index: number }[];
    };
    if (upload.kind === 'xlsx' && sheet !== undefined) {
      // A string is a sheet name (a sheet may be called "2024"); a number is a tab index.
      const found = info.sheets?.find((s) =>
        typeof sheet === 'string' ? s.name === sheet : s.index === sheet,
      );
      if (!found) {
        throw Errors.validation([
          {
            path: 'source.sheet',
            message: `no sheet ${JSON.stringify(sheet)}; sheets are ${(info.sheets ?? []).map((s) => s.name).join(', ')}`,
          },
        ]);
      }
      if (found.name !== info.sheet) {
        const counted = await this.deps.countRows(upload.id, found.name);
        return { fields: counted.fields, total: counted.rows, sheet: found.name };
      }
    }
    return {
      fields: info.fields ?? [],
      total: info.rows ?? 0,
      ...(info.sheet !== undefined ? { sheet: info.sheet } : {}),
    };
  }

  private async imagesFolder(
    request: CreateBatchRequest,
    batchId: string,
  ): Promise<{ batchId: string; dir: string | null }> {
    if (request.imagesRef) {
      const upload = this.deps.store.uploads.get(request.imagesRef);
      if (!upload || upload.kind !== 'zip') {
        throw Errors.validation([
          { path: 'imagesRef', message: 'name an uploaded .zip of images (POST /v1/uploads)' },
        ]);
      }
      const dir = await this.deps.unpackImages(upload.id, this.deps.outputs.imagesDir(batchId));
      return { batchId, dir };
    }
    if (request.imagesDir) {
      return { batchId, dir: checkImagesDir(request.imagesDir, this.deps.protectedDirs) };
    }
    return { batchId, dir: null };
  }
}

export function isTerminal(batch: Pick<BatchRecord, 'status'>): boolean {
  return TERMINAL_STATUSES.includes(batch.status);
}
