import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  TERMINAL_STATUSES,
  type Batch,
  type CreateBatchRequest,
  type ManifestRow,
  type RowStatus,
} from '../../shared/batch-schemas.js';
import { AppError, Errors, type Problem } from '../../shared/errors.js';
import { BUNDLE_PART_ROWS } from '../../shared/batch-schemas.js';
import { pageCount } from '../../shared/layout-pages.js';
import type { Layout } from '../../shared/template-format.js';
import { brandProfileFor } from '../brand/named-brand.js';
import { checkOutputOptions, type RenderService } from '../render/render-service.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { CoreData } from '../data/core-data.js';
import { batchSourceName, toBatchResource } from './batch-resource.js';
import type { BatchOutputs } from './batch-outputs.js';
import type { BatchWork } from './batch-work.js';
import { planBindings, serialRangeProblems } from './bindings.js';
import { batchSheetPlan, drawsRowsOnSheetsOnly } from './batch-sheets.js';
import { hasSheetParts, recordSheetPlan, sheetPlacement } from './sheet-parts.js';
import { sheetPlace, type SheetPlan } from '../../shared/sheet-plan.js';
import { createBundleStream, type BundleEntry } from './bundle-writer.js';
import { BatchFileNamer, assertPatternFields, bundleEntryNames } from './file-names.js';
import { batchRowsOf } from './source-records.js';
import { checkImagesDir } from './images-folder.js';
import { checkChosenRows } from './chosen-rows.js';
import { recordFields } from '../ingest/rows/record-row-source.js';
import {
  EXTENSIONS,
  batchImagesKey,
  batchObjectPrefix,
  rowObjectKey,
  sheetPartKey,
  sheetPartName,
} from './output-address.js';
import type { ObjectStore } from '../objects/object-store.js';
import { csvLine } from './spreadsheet-safety.js';

export interface BatchServiceDeps {
  data: CoreData;
  renderer: RenderService;
  work: BatchWork;
  outputs: BatchOutputs;
  /** The output store the rows were written to (bundles read from it). */
  objects: ObjectStore;
  /** Cluster nodes share no disk: an images folder on one machine means nothing to the others. */
  mode: 'embedded' | 'cluster';
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

/**
 * A batch row is one file: a multi-page layout goes into a batch as one pdf a row, or as images
 * of one page.
 */
function checkBatchPages(layout: Layout | undefined, request: CreateBatchRequest): void {
  const pages = layout ? pageCount(layout) : 1;
  if (pages > 1 && request.format !== 'pdf' && request.page === undefined) {
    throw Errors.validation([
      {
        path: 'page',
        message: `this layout has ${pages} pages and a batch row is one file: choose pdf for every page in one, or a page (1–${pages}) for images`,
      },
    ]);
  }
}

/** Batch operations behind the /v1/render-batches routes (spec §3, §4.3; DESIGN §4). */
export class BatchService {
  constructor(private readonly deps: BatchServiceDeps) {}

  async create(request: CreateBatchRequest, apiKeyId: string | null): Promise<Batch> {
    const { data, renderer } = this.deps;
    const entry = renderer.entry(request.templateId);
    const targets = this.checkTargets(request);
    const target = targets?.[0] ?? renderer.ratioFor(entry, request.target);
    checkOutputOptions(entry, target, request);
    checkBatchPages(entry.template.layouts[target], request);
    if (request.sheets)
      batchSheetPlan(entry.template, target, { ...request, sheets: request.sheets });
    // Pinned now: editing the brand while the batch runs must not change rows not yet drawn.
    const brand = await brandProfileFor(data.brandProfiles, request.brand);
    const source = await this.describeSource(request);
    planBindings(entry.template, source.fields, request.bindings ?? {});
    // A count down past 0 is known now, from the last row the batch draws: refused, not failed rows.
    const lastRow =
      ('sourceRef' in request.source ? request.source.rows?.at(-1) : undefined) ??
      source.sourceTotal - 1;
    const serialProblems = serialRangeProblems(request.bindings ?? {}, Math.max(0, lastRow));
    if (serialProblems.length > 0) throw Errors.validation(serialProblems);
    if (request.fileNamePattern)
      assertPatternFields(request.fileNamePattern, source.fields, 'fileNamePattern');
    const imagesDir = await this.imagesFolder(request, data.batches.newId());
    const id = imagesDir.batchId;
    const now = new Date();
    const records =
      'records' in request.source
        ? (() => {
            const namer = new BatchFileNamer(
              request.fileNamePattern ?? null,
              EXTENSIONS[request.format],
            );
            const shape = { target, targets: targets ?? null };
            return request.source.records.flatMap((cells, rowIndex) =>
              batchRowsOf(shape, namer, { rowIndex, line: null, cells }),
            );
          })()
        : undefined;
    const batch = await data.commands.createBatch({
      batch: {
        id,
        templateId: entry.template.id,
        templateSnapshot: entry.template,
        templateVersion: entry.version ?? null,
        assetsDir: entry.assetsDir,
        target,
        format: request.format,
        quality: request.quality ?? null,
        outputOptions: {
          ...(request.scale !== undefined ? { scale: request.scale } : {}),
          ...(request.background !== undefined ? { background: request.background } : {}),
          ...(request.cropMarks !== undefined ? { cropMarks: request.cropMarks } : {}),
          ...(request.page !== undefined ? { page: request.page } : {}),
          ...(request.verifyCodes ? { verifyCodes: true } : {}),
        },
        sheetOptions: request.sheets ?? null,
        targets,
        sourceType: request.sourceType,
        sourceRef: 'sourceRef' in request.source ? request.source.sourceRef : null,
        sheet: source.sheet ?? null,
        sourceRows: ('sourceRef' in request.source ? request.source.rows : undefined) ?? null,
        sourceTotal: source.sourceTotal,
        bindings: request.bindings ?? {},
        fileNamePattern: request.fileNamePattern ?? null,
        imagesDir: imagesDir.dir,
        brand,
        today: now.toISOString().slice(0, 10),
        status: 'queued',
        // One image (and credit) per row and layout.
        total: source.total * (targets?.length ?? 1),
        rejectedReason: null,
        apiKeyId,
        createdAt: now.toISOString(),
      },
      ...(records ? { records } : {}),
      ...('sourceRef' in request.source ? { uploadRef: request.source.sourceRef } : {}),
    });
    if (batch.status === 'queued') await this.deps.work.start(batch);
    return this.resource(batch);
  }

  /**
   * The layouts of a several-sizes batch, each checked as `target` is; null for one layout.
   * Not with `target` (which one would win?) nor sheets, and not on a cluster, whose ingest
   * draws one layout per batch.
   */
  private checkTargets(request: CreateBatchRequest): string[] | null {
    if (!request.targets) return null;
    const problems: { path: string; message: string }[] = [];
    if (request.target !== undefined)
      problems.push({
        path: 'target',
        message: 'give target for one layout or targets for several, not both',
      });
    if (request.sheets)
      problems.push({
        path: 'sheets',
        message: 'sheets draw one layout: leave targets out, or sheets',
      });
    if (problems.length > 0) throw Errors.validation(problems);
    const entry = this.deps.renderer.entry(request.templateId);
    return request.targets.map((name, i) => {
      const layout = this.deps.renderer.ratioFor(entry, name, `targets[${i}]`);
      checkOutputOptions(entry, layout, request);
      checkBatchPages(entry.template.layouts[layout], request);
      return layout;
    });
  }

  async get(id: string): Promise<Batch> {
    return this.resource(await this.record(id));
  }

  /** Newest first; with `apiKeyId`, only the batches that key created. */
  async list(limit: number, apiKeyId: string | null = null): Promise<Batch[]> {
    const batches = await this.deps.data.batches.list({
      limit,
      ...(apiKeyId !== null ? { apiKeyId } : {}),
    });
    return Promise.all(batches.map((batch) => this.resource(batch)));
  }

  async manifest(
    id: string,
    cursor: number,
    limit: number,
    status?: RowStatus,
  ): Promise<{ rows: ManifestRow[]; nextCursor: string | null }> {
    const batch = await this.record(id);
    const rows = await this.deps.data.batches.manifest(id, cursor, limit + 1, status);
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? rows[limit] : undefined;
    return {
      rows: await this.placeOnSheets(batch, page, cursor),
      nextCursor: next ? String(next.rowIndex) : null,
    };
  }

  /**
   * A finished sheet batch's succeeded rows say where they are printed, as manifest.csv does; a
   * row drawn only on the sheets has no file of its own, so it names none.
   */
  private async placeOnSheets(
    batch: BatchRecord,
    rows: ManifestRow[],
    cursor: number,
  ): Promise<ManifestRow[]> {
    const plan = hasSheetParts(batch) ? recordSheetPlan(batch) : null;
    const sheetsOnly = drawsRowsOnSheetsOnly(batch);
    if (!plan && !sheetsOnly) return rows;
    // The n-th succeeded row has place n: count those before the page once.
    let placed = plan && cursor > 0 ? await this.succeededBefore(batch.id, cursor) : 0;
    return rows.map((row) => {
      const own = sheetsOnly ? { ...row, outputKey: null, fileName: null } : row;
      if (!plan || row.status !== 'succeeded') return own;
      return { ...own, sheet: sheetPlacement(plan, placed++, batch.succeeded) };
    });
  }

  async cancel(id: string): Promise<Batch> {
    const batch = await this.record(id);
    if (isTerminal(batch)) return this.resource(batch);
    await this.deps.work.stop(id);
    await this.deps.data.commands.cancelBatch(id);
    return this.get(id);
  }

  async replay(id: string): Promise<Batch> {
    await this.record(id);
    const batch = await this.deps.data.commands.replayBatch(id);
    await this.deps.work.start(batch);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const batch = await this.record(id);
    if (!isTerminal(batch)) await this.cancel(id);
    await this.deps.data.batches.remove(id);
    await this.deps.work.removed(id);
  }

  /** Throws 422 bundle-not-ready while the batch is live. */
  async assertBundleReady(id: string): Promise<BatchRecord> {
    const batch = await this.record(id);
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
    options: { onError?: (error: Error) => void; part?: number } = {},
  ): Promise<{ stream: Readable; missingRows: number[] }> {
    const { entries, extras, missingRows } = await this.bundleContents(id, withManifest, options);
    return { stream: createBundleStream(entries, extras, options), missingRows };
  }

  /**
   * What the bundle holds, entry by entry: the command line writes a folder from it, and a zip
   * of the same bytes as the API's (`bundle`), so a batch's result is the same in every mode.
   */
  async bundleContents(
    id: string,
    withManifest: boolean,
    options: { part?: number } = {},
  ): Promise<{
    entries: BundleEntry[];
    extras: { name: string; content: Buffer }[];
    missingRows: number[];
  }> {
    const batch = await this.assertBundleReady(id);
    const extension = EXTENSIONS[batch.format];
    const all = [];
    for await (const row of this.deps.data.batches.succeededRows(id)) all.push(row);
    // Names are made unique over the whole batch, so the parts hold the very names of the whole.
    const allNames = bundleEntryNames(all, extension);
    const from = options.part !== undefined ? (options.part - 1) * BUNDLE_PART_ROWS : 0;
    const to = options.part !== undefined ? from + BUNDLE_PART_ROWS : all.length;
    if (options.part !== undefined && (options.part < 1 || from >= all.length))
      throw Errors.notFound('bundle part', `${id} part ${options.part}`);
    const sheets = recordSheetPlan(batch);
    // Sheet batches hold the sheets, and each row's own file only when asked for.
    const singles = !sheets || sheets.singleFiles;
    const rows = singles ? all.slice(from, to) : [];
    const names = allNames.slice(from, to);
    const { objects } = this.deps;
    const keys = rows.map((row) => rowObjectKey(id, row.rowIndex, batch.format));
    const partKeys =
      sheets && options.part === undefined
        ? Array.from(
            { length: Math.ceil(all.length / (sheets.perSheet * sheets.sheetsPerPart)) },
            (_, i) => sheetPartKey(id, i + 1),
          )
        : [];
    // Asked together: all of them lie in the batch's folder, which the S3 store lists once.
    const allSizes = await objects.sizes(batchObjectPrefix(id), [...partKeys, ...keys]);
    const partSizes = allSizes.slice(0, partKeys.length);
    const sizes = allSizes.slice(partKeys.length);
    const entries: BundleEntry[] = [];
    partKeys.forEach((key, i) => {
      const size = partSizes[i];
      if (size === null || size === undefined) return;
      entries.push({ name: sheetPartName(i + 1), size, open: () => objects.getStream(key) });
    });
    const fileNames = new Map<number, string>();
    const missingRows: number[] = [];
    rows.forEach((row, i) => {
      const size = sizes[i];
      if (size === null || size === undefined) {
        missingRows.push(row.rowIndex);
        return;
      }
      const name = names[i]!;
      const key = keys[i]!;
      fileNames.set(row.rowIndex, name);
      entries.push({ name, size, open: () => objects.getStream(key) });
    });
    const extras = withManifest
      ? [
          {
            name: 'manifest.csv',
            content: await this.manifestCsv(
              id,
              fileNames,
              new Set(missingRows),
              sheets ? { plan: sheets, count: all.length } : null,
              // A part's manifest covers the rows from its first output to the next part's.
              options.part !== undefined
                ? {
                    from: options.part === 1 ? 0 : (rows[0]?.rowIndex ?? 0),
                    to: to < all.length ? (all[to]?.rowIndex ?? Infinity) : Infinity,
                  }
                : { from: 0, to: Infinity },
            ),
          },
        ]
      : [];
    return { entries, extras, missingRows };
  }

  private async manifestCsv(
    id: string,
    fileNames: Map<number, string>,
    missingRows: ReadonlySet<number>,
    placing: { plan: SheetPlan; count: number } | null,
    range: { from: number; to: number },
  ): Promise<Buffer> {
    const sheets = placing?.plan;
    const header = ['rowIndex', 'status', 'file', 'error'];
    // Where each row is printed: its part's file, the sheet, the page of its front (and back)
    // in that file, and its position on the sheet (1 = top left, row by row).
    if (sheets) header.push('sheetFile', 'sheet', 'page', 'backPage', 'position');
    const lines = ['\ufeff' + csvLine(header)];
    // Sheets hold the succeeded rows in rowIndex order: the n-th succeeded row has place n.
    let placed = sheets && range.from > 0 ? await this.succeededBefore(id, range.from) : 0;
    let cursor = range.from;
    for (;;) {
      const rows = await this.deps.data.batches.manifest(id, cursor, 1000);
      for (const row of rows) {
        if (row.rowIndex >= range.to) return Buffer.from(lines.join(''), 'utf8');
        const error = missingRows.has(row.rowIndex) ? MISSING_OUTPUT : (row.error ?? '');
        const cells: (string | number)[] = [
          row.rowIndex,
          row.status,
          fileNames.get(row.rowIndex) ?? '',
          error,
        ];
        if (placing && row.status === 'succeeded') {
          const place = sheetPlace(placing.plan, placed++, placing.count);
          cells.push(
            sheetPartName(place.part),
            place.sheet,
            place.page,
            place.backPage ?? '',
            place.position,
          );
        } else if (sheets) cells.push('', '', '', '', '');
        lines.push(csvLine(cells));
      }
      const last = rows.at(-1);
      if (!last || rows.length < 1000) break;
      cursor = last.rowIndex + 1;
    }
    return Buffer.from(lines.join(''), 'utf8');
  }

  private async succeededBefore(id: string, rowIndex: number): Promise<number> {
    let count = 0;
    for await (const row of this.deps.data.batches.succeededRows(id)) {
      if (row.rowIndex >= rowIndex) break;
      count += 1;
    }
    return count;
  }

  private async record(id: string): Promise<BatchRecord> {
    const batch = /^bat_[A-Za-z0-9_-]{1,64}$/.test(id)
      ? await this.deps.data.batches.get(id)
      : null;
    if (!batch) throw Errors.notFound('batch', id);
    return batch;
  }

  private async cancelledRows(batch: BatchRecord): Promise<number> {
    return batch.status === 'cancelled'
      ? (await this.deps.data.batches.counts(batch.id)).cancelled
      : 0;
  }

  private async resource(batch: BatchRecord): Promise<Batch> {
    return toBatchResource(
      batch,
      await this.cancelledRows(batch),
      this.deps.outputs.batchDir(batch.id),
      await batchSourceName(this.deps.data.uploads, batch),
    );
  }

  private async describeSource(
    request: CreateBatchRequest,
  ): Promise<{ fields: string[]; total: number; sourceTotal: number; sheet?: string }> {
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
      return {
        fields: recordFields(request.source.records),
        total: request.source.records.length,
        sourceTotal: request.source.records.length,
      };
    }
    if (!('sourceRef' in request.source)) {
      throw Errors.validation([
        {
          path: 'source.sourceRef',
          message: `${request.sourceType} sources name an upload: { "sourceRef": "upl_…" } from POST /v1/uploads`,
        },
      ]);
    }
    const upload = await this.deps.data.uploads.get(request.source.sourceRef);
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
    const { sheet, rows } = request.source;
    // Some rows only: each must be in the sheet, and the batch counts (and holds) just them.
    const chosen = <T extends { total: number }>(described: T): T & { sourceTotal: number } => {
      if (!rows) return { ...described, sourceTotal: described.total };
      checkChosenRows(rows, described.total);
      return { ...described, total: rows.length, sourceTotal: described.total };
    };
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
        return chosen({ fields: counted.fields, total: counted.rows, sheet: found.name });
      }
    }
    return chosen({
      fields: info.fields ?? [],
      total: info.rows ?? 0,
      ...(info.sheet !== undefined ? { sheet: info.sheet } : {}),
    });
  }

  private async imagesFolder(
    request: CreateBatchRequest,
    batchId: string,
  ): Promise<{ batchId: string; dir: string | null }> {
    if (request.imagesRef) {
      const upload = await this.deps.data.uploads.get(request.imagesRef);
      if (!upload || upload.kind !== 'zip') {
        throw Errors.validation([
          { path: 'imagesRef', message: 'name an uploaded .zip of images (POST /v1/uploads)' },
        ]);
      }
      const dir = await this.deps.unpackImages(upload.id, this.deps.outputs.imagesDir(batchId));
      if (this.deps.mode === 'cluster') {
        // Unpacked here only to refuse a bad zip now; the workers draw from their own copies,
        // and the recorded folder only says that the batch has one.
        await this.shareImages(upload.path, batchId);
        fs.rmSync(dir, { recursive: true, force: true });
      }
      return { batchId, dir };
    }
    if (request.imagesDir) {
      if (this.deps.mode === 'cluster')
        throw Errors.validation([
          {
            path: 'imagesDir',
            message:
              'a folder on one machine cannot be read by the workers of a cluster; upload the images as a .zip (POST /v1/uploads) and name it in imagesRef',
          },
        ]);
      return { batchId, dir: checkImagesDir(request.imagesDir, this.deps.protectedDirs) };
    }
    return { batchId, dir: null };
  }

  /**
   * A cluster's workers share no disk with this node: the zip goes to the object store beside
   * the batch's rows (batchImagesKey), where each worker finds it. Copied from the upload (whose
   * record's path is its key there), which is purged after a day: a replay later finds its
   * images, and deleting the batch removes them with its outputs.
   */
  private async shareImages(uploadKey: string, batchId: string): Promise<void> {
    const { objects } = this.deps;
    const zip = await objects.getStream(uploadKey);
    if (!zip) throw new Error(`the images zip ${uploadKey} is missing from the object store`);
    await objects.putStream(batchImagesKey(batchId), zip, { contentType: 'application/zip' });
  }
}

export function isTerminal(batch: Pick<BatchRecord, 'status'>): boolean {
  return TERMINAL_STATUSES.includes(batch.status);
}
