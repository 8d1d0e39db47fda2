import fs from 'node:fs';
import path from 'node:path';
import { Bindings, MAX_INLINE_RECORDS } from '../../shared/batch-schemas.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { EXTENSIONS } from '../batch/output-address.js';
import { planBindings } from '../batch/bindings.js';
import { BatchFileNamer, assertPatternFields, bundleEntryNames } from '../batch/file-names.js';
import { checkImagesDir, createImagesFolderResolver } from '../batch/images-folder.js';
import { batchSheetPlan } from '../batch/batch-sheets.js';
import { sheetPartName } from '../batch/output-address.js';
import { readError } from '../batch/source-records.js';
import { describeRowError, prepareRow, type RowContext } from '../batch/render-batch-row.js';
import { brandProfileFor } from '../brand/named-brand.js';
import type { OutputFormat } from '../render/render-protocol.js';
import {
  deliver,
  deliverBundle,
  manifestCsv,
  type Deliverable,
  type ManifestLine,
} from './batch-delivery.js';
import { printBatchSummary } from './batch-summary.js';
import { readCliSource, readSourceRows, type CliSource } from './batch-source.js';
import { EXIT } from './exit-codes.js';
import { BUNDLED_FONTS_DIR, CLI_PRINCIPAL, type LocalCore } from './local-core.js';
import { outputFormat } from './output-format.js';
import { RenderCache } from './render-cache.js';
import { RenderFingerprints } from './render-fingerprint.js';
import { parseQuality, parseScale } from './render-request.js';
import type { TerminalStyle } from './terminal-style.js';
import { UsageError } from './usage-error.js';
import { runBatchToEnd } from './wait-for-batch.js';
import type { SheetOptions } from '../../shared/sheet-options.js';
import { sheetPlace } from '../../shared/sheet-plan.js';
import type { Template } from '../../shared/template-format.js';

export interface BatchRunOptions {
  templateId: string;
  sourceFile: string;
  out: string;
  cacheDir: string | null;
  format: string | undefined;
  target: string | undefined;
  /** Several layouts in one run (the API's `targets`). */
  targets?: string[] | undefined;
  /** How variables take their values (the API's `bindings`), checked by the batch. */
  bindings?: Record<string, unknown> | undefined;
  quality: string | undefined;
  /** Output pixels per layout pixel (the API's `scale`). */
  scale?: string | undefined;
  brand: string | undefined;
  namePattern: string | undefined;
  sheet: string | undefined;
  /** Where relative image paths in cells resolve (`photos/a.jpg` beside the spreadsheet). */
  imagesDir: string | undefined;
  json: boolean;
  /** N-up sheets (the API's `sheets` option); the run delivers sheets-1.pdf, … */
  sheets?: SheetOptions | undefined;
  /** Crop marks outside each file's trim and bleed (the API's `cropMarks`). */
  cropMarks?: boolean | undefined;
  /** Every output's codes read back from its pixels (the API's `verifyCodes`). */
  verifyCodes?: boolean | undefined;
}

/** What a run produced, before it is written out. */
export interface BatchOutcome {
  images: Deliverable[];
  manifest: ManifestLine[];
  /** The manifest has sheet columns. */
  sheets?: boolean;
  /**
   * A plain run's result is its batch's own bundle (written as the API serves it); `images` and
   * `manifest` then only feed the summary.
   */
  bundleOf?: string;
  rendered: number;
  unchanged: number;
  failed: number;
  batchIds: string[];
  /** Seconds from creating the batch to its last row (0 when nothing was rendered). */
  renderSeconds: number;
  /** Why a batch stopped early (its circuit breaker, a full disk), as the app says it. */
  stoppedReason?: string | null;
}

/** The options every batch of this run shares, as POST /v1/render-batches takes them. */
interface BatchBase {
  templateId: string;
  format: OutputFormat;
  target?: string;
  targets?: string[];
  bindings?: Bindings;
  quality?: number;
  scale?: number;
  brand?: string;
  imagesDir?: string;
  sheets?: SheetOptions;
  cropMarks?: true;
  verifyCodes?: true;
}

export async function runBatch(
  options: BatchRunOptions,
  core: LocalCore,
  style: TerminalStyle,
  /** Sizes the render threads for this many rows to render (a cached run knows after hashing). */
  threadsFor: (rows: number) => Promise<void> = () => Promise.resolve(),
): Promise<number> {
  const started = performance.now();
  const source = readCliSource(options.sourceFile, options.sheet);
  const quality = parseQuality('batch', options.quality);
  const scale = parseScale('batch', options.scale);
  const { sheets } = options;
  if (sheets && options.cacheDir)
    throw new UsageError(
      'batch: --cache keeps one file per row and --sheets draws rows onto shared sheets; use one of them',
    );
  if (sheets && options.cropMarks)
    throw new UsageError(
      'batch: --crop-marks marks single files; sheets take --marks crop|cut|none instead',
    );
  if (options.targets !== undefined && options.target !== undefined)
    throw new UsageError('batch: give --target for one layout or --targets for several, not both');
  if (options.targets !== undefined && options.targets.length === 0)
    throw new UsageError('batch: --targets names the layouts, e.g. --targets square,story');
  const bindings = options.bindings !== undefined ? parseBindings(options.bindings) : undefined;
  if (bindings && options.cacheDir) assertCacheableBindings(bindings);
  // Sheets are PDF pages of a print layout: those are the defaults when --sheets is given.
  const target =
    options.target ?? (sheets ? firstPrintLayout(core, options.templateId) : undefined);
  const base: BatchBase = {
    templateId: options.templateId,
    format: outputFormat('batch', options.format ?? (sheets ? 'pdf' : undefined), undefined),
    ...(target !== undefined ? { target } : {}),
    ...(options.targets !== undefined ? { targets: options.targets } : {}),
    ...(bindings !== undefined ? { bindings } : {}),
    ...(sheets ? { sheets } : {}),
    ...(options.cropMarks ? { cropMarks: true as const } : {}),
    ...(options.verifyCodes ? { verifyCodes: true as const } : {}),
    ...(quality !== undefined ? { quality } : {}),
    ...(scale !== undefined ? { scale } : {}),
    ...(options.brand !== undefined ? { brand: options.brand } : {}),
    ...imagesFolder(options, core.dataDir),
  };
  await core.assertSubscription();
  const outcome = options.cacheDir
    ? await cachedRun(core, source, base, options, new RenderCache(options.cacheDir), threadsFor)
    : await plainRun(core, source, base, options);
  if (outcome.bundleOf !== undefined)
    await deliverBundle(core.batches, outcome.bundleOf, options.out);
  else await deliver(options.out, outcome.images, manifestCsv(outcome.manifest, outcome.sheets));
  const { balance } = await core.data.ledger.account();
  printBatchSummary(outcome, {
    out: options.out,
    cached: options.cacheDir !== null,
    balance,
    seconds: (performance.now() - started) / 1000,
    json: options.json,
    style,
  });
  return outcome.failed > 0 ? EXIT.problems : EXIT.ok;
}

/** `--bindings` as the API takes them; a shape the API refuses is a usage error naming it. */
function parseBindings(raw: Record<string, unknown>): Bindings {
  const parsed = Bindings.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = zodProblems(parsed.error);
  throw new UsageError(
    `--bindings: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')} (each variable takes {"field": "column"}, {"constant": …}, {"profile": "brand.…"}, {"generated": "rowNumber" | "total" | "today" | "uuid"} or {"serial": {"start", "step", "pad", "prefix", "suffix"}})`,
  );
}

/**
 * The cache keys a row by what it draws, prepared as row N of a run of its own: a generated row
 * number or uuid belongs to the batch that draws the row, which a cached run only knows later.
 */
function assertCacheableBindings(bindings: Bindings): void {
  const generated = Object.entries(bindings).filter(
    ([, binding]) =>
      'serial' in binding ||
      ('generated' in binding &&
        (binding.generated === 'rowNumber' ||
          binding.generated === 'uuid' ||
          binding.generated === 'total')),
  );
  if (generated.length > 0)
    throw new UsageError(
      `batch: --cache keeps a row's image by what it draws, but ${generated.map(([name]) => name).join(', ')} ${generated.length === 1 ? 'is' : 'are'} generated per batch (row number, serial, row count or uuid); leave --cache out, or bind ${generated.length === 1 ? 'it' : 'them'} to a column`,
    );
}

/** The template's first layout with a physical page (badge, a4), for sheets without --target. */
function firstPrintLayout(core: LocalCore, templateId: string): string | undefined {
  const layouts = core.renderer.entry(templateId).template.layouts;
  return Object.keys(layouts).find((name) => layouts[name]?.page !== undefined);
}

/**
 * `--images`, else the source file's folder (photos kept beside the spreadsheet), unless that
 * folder holds the data folder, which no images folder may reach.
 */
function imagesFolder(options: BatchRunOptions, dataDir: string): { imagesDir?: string } {
  if (options.imagesDir !== undefined)
    return { imagesDir: checkImagesDir(options.imagesDir, [dataDir]) };
  try {
    return { imagesDir: checkImagesDir(path.dirname(path.resolve(options.sourceFile)), [dataDir]) };
  } catch {
    return {};
  }
}

/** Every row rendered by one batch, read from an upload of the file as the app reads it. */
async function plainRun(
  core: LocalCore,
  source: CliSource,
  base: BatchBase,
  options: BatchRunOptions,
): Promise<BatchOutcome> {
  let request;
  if (source.kind === 'json') {
    request = { ...base, sourceType: 'json-array', source: { records: source.records } };
  } else {
    const upload = await core.uploads.receive(fs.createReadStream(source.file), {
      filename: path.basename(source.file),
      contentType: null,
      apiKeyId: CLI_PRINCIPAL,
      ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
    });
    if (upload.kind !== 'csv' && upload.kind !== 'xlsx')
      throw new UsageError(`--source: ${source.file} is no CSV, xlsx or JSON file`);
    request = {
      ...base,
      sourceType: upload.kind,
      source: {
        sourceRef: upload.id,
        ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
      },
    };
  }
  const { batch, seconds } = await runBatchToEnd(
    core,
    {
      ...request,
      ...(options.namePattern !== undefined ? { fileNamePattern: options.namePattern } : {}),
    },
    'rendering',
  );
  const format = batch.format as OutputFormat;
  const succeeded = [];
  for await (const row of core.data.batches.succeededRows(batch.id)) succeeded.push(row);
  if (batch.sheetOptions) return sheetOutcome(core, batch, succeeded.length, seconds);
  const names = bundleEntryNames(succeeded, EXTENSIONS[format]);
  const fileOf = new Map(succeeded.map((row, i) => [row.rowIndex, names[i]!]));
  const manifest: ManifestLine[] = [];
  for await (const row of manifestRows(core, batch.id)) {
    manifest.push({
      rowIndex: row.rowIndex,
      status: row.status === 'succeeded' ? 'rendered' : 'failed',
      file: fileOf.get(row.rowIndex) ?? '',
      error: row.error ?? '',
    });
  }
  return {
    images: succeeded.map((row, i) => ({
      name: names[i]!,
      file: core.outputs.rowFile(batch.id, row.rowIndex, format),
      cached: false,
    })),
    manifest,
    rendered: succeeded.length,
    unchanged: 0,
    failed: manifest.length - succeeded.length,
    batchIds: [batch.id],
    renderSeconds: seconds,
    bundleOf: batch.id,
    stoppedReason: batch.stoppedReason,
  };
}

/**
 * A sheet batch's result: its sheet parts (sheets-1.pdf, …, drawn beside the rows' files), and
 * the manifest with where each row is printed, placed as the batch placed them.
 */
async function sheetOutcome(
  core: LocalCore,
  batch: Awaited<ReturnType<typeof runBatchToEnd>>['batch'],
  placed: number,
  seconds: number,
): Promise<BatchOutcome> {
  const plan = batchSheetPlan(batch.templateSnapshot as Template, batch.target, {
    format: batch.format as OutputFormat,
    ...(batch.outputOptions.page !== undefined ? { page: batch.outputOptions.page } : {}),
    sheets: batch.sheetOptions!,
  });
  const parts = placed === 0 ? 0 : sheetPlace(plan, placed - 1, placed).part;
  const images = Array.from({ length: parts }, (_, i) => ({
    name: sheetPartName(i + 1),
    file: path.join(core.outputs.batchDir(batch.id), sheetPartName(i + 1)),
    cached: false,
  }));
  const manifest: ManifestLine[] = [];
  let ordinal = 0;
  for await (const row of manifestRows(core, batch.id)) {
    const ok = row.status === 'succeeded';
    manifest.push({
      rowIndex: row.rowIndex,
      status: ok ? 'rendered' : 'failed',
      file: '',
      error: row.error ?? '',
      sheet: ok ? sheetPlace(plan, ordinal++, placed) : undefined,
    });
  }
  return {
    images,
    manifest,
    sheets: true,
    rendered: placed,
    unchanged: 0,
    failed: manifest.length - placed,
    batchIds: [batch.id],
    bundleOf: batch.id,
    renderSeconds: seconds,
  };
}

/**
 * CI mode: every row's fingerprint is computed first; rows found in the cache are delivered from
 * it (not rendered, not charged), and only the others go to a batch, whose outputs join the cache.
 */
async function cachedRun(
  core: LocalCore,
  source: CliSource,
  base: BatchBase,
  options: BatchRunOptions,
  cache: RenderCache,
  threadsFor: (rows: number) => Promise<void>,
): Promise<BatchOutcome> {
  const { renderer } = core;
  const entry = renderer.entry(base.templateId);
  // Several sizes: each source row is one image per layout, numbered as batch-targets.ts says.
  const layouts = base.targets?.map((name, i) => renderer.ratioFor(entry, name, `targets[${i}]`));
  const target = layouts?.[0] ?? renderer.ratioFor(entry, base.target);
  const brand = await brandProfileFor(core.data.brandProfiles, base.brand);
  const extension = EXTENSIONS[base.format];
  // One render thread (started with the pool): it loads the engine and draws a first image on
  // the other core while this one reads and hashes the rows, so that the few changed rows of a
  // CI run render at once at the end. A run where nothing changed closes it unused.
  const firstThread = threadsFor(1);
  warmUp(core, base, entry, target, brand);
  const { fields, rows } = await readSourceRows(source);
  const plan = planBindings(entry.template, fields, base.bindings ?? {});
  if (options.namePattern !== undefined)
    assertPatternFields(options.namePattern, fields, 'name-pattern');
  const namer = new BatchFileNamer(options.namePattern ?? null, extension);
  const fingerprints = new RenderFingerprints(BUNDLED_FONTS_DIR);
  // As the batch will resolve them: relative paths inside the images folder, nothing outside it.
  const resolveImage = createImagesFolderResolver(
    base.imagesDir ? { dir: base.imagesDir, managed: false } : null,
    core.resolveImage,
  );
  const customFonts = core.fonts.faces();
  // Each row prepared as the batch that renders a miss prepares it (batch/render-batch-row.ts).
  const rowContext: RowContext = {
    batchId: 'cli',
    today: new Date().toISOString().slice(0, 10),
    sourceTotal: rows.length,
    templateId: base.templateId,
    format: base.format,
    quality: base.quality ?? null,
    // Verified outputs are cached apart: a hit was read back when it was drawn.
    outputOptions: {
      ...(base.scale !== undefined ? { scale: base.scale } : {}),
      ...(base.cropMarks ? { cropMarks: true } : {}),
      ...(base.verifyCodes ? { verifyCodes: true } : {}),
    },
    sizes: { target, targets: layouts ?? null },
    entry,
    brand,
    plan,
    resolveImage,
  };
  const per = layouts?.length ?? 1;

  const lines = new Map<number, ManifestLine>();
  const images = new Map<number, Deliverable>();
  const misses: {
    rowIndex: number;
    layout: string;
    cells: Record<string, unknown>;
    name: string;
    key: string;
  }[] = [];
  for (const row of rows) {
    const unreadable = readError(row);
    for (let t = 0; t < per; t += 1) {
      const rowIndex = row.rowIndex * per + t;
      const layout = layouts?.[t] ?? target;
      const name = layouts
        ? namer.nameIn(row.rowIndex, row.cells, layout)
        : namer.name(row.rowIndex, row.cells);
      const fail = (error: string) =>
        lines.set(rowIndex, { rowIndex, status: 'failed', file: '', error });
      if (unreadable !== undefined) {
        fail(unreadable);
        continue;
      }
      let key: string;
      try {
        key = fingerprints.of(
          await prepareRow(renderer, rowContext, { rowIndex, record: row.cells }, { customFonts }),
        );
      } catch (error) {
        // The same message the batch would have given the row, without holding a credit for it.
        fail(describeRowError(error));
        continue;
      }
      const hit = cache.find(key, extension);
      if (hit) {
        images.set(rowIndex, { name, file: hit, cached: true });
        lines.set(rowIndex, { rowIndex, status: 'unchanged', file: name, error: '' });
      } else {
        misses.push({ rowIndex, layout, cells: row.cells, name, key });
      }
    }
  }

  await firstThread;
  if (misses.length > 0) await threadsFor(misses.length);
  const batchIds: string[] = [];
  let renderSeconds = 0;
  // The changed images of each layout are one batch (or a few, of at most MAX_INLINE_RECORDS).
  const { targets: _several, ...single } = base;
  for (const layout of layouts ?? [target]) {
    const ofLayout = misses.filter((miss) => miss.layout === layout);
    for (let from = 0; from < ofLayout.length; from += MAX_INLINE_RECORDS) {
      const chunk = ofLayout.slice(from, from + MAX_INLINE_RECORDS);
      const { batch, seconds } = await runBatchToEnd(
        core,
        {
          ...single,
          target: layout,
          sourceType: 'json-array',
          source: { records: chunk.map((m) => m.cells) },
        },
        'rendering',
      );
      batchIds.push(batch.id);
      renderSeconds += seconds;
      for await (const row of manifestRows(core, batch.id)) {
        const miss = chunk[row.rowIndex]!;
        if (row.status !== 'succeeded') {
          lines.set(miss.rowIndex, {
            rowIndex: miss.rowIndex,
            status: 'failed',
            file: '',
            error: row.error ?? row.status,
          });
          continue;
        }
        const file = await cache.put(
          miss.key,
          extension,
          core.outputs.rowFile(batch.id, row.rowIndex, base.format),
        );
        images.set(miss.rowIndex, { name: miss.name, file, cached: true });
        lines.set(miss.rowIndex, {
          rowIndex: miss.rowIndex,
          status: 'rendered',
          file: miss.name,
          error: '',
        });
      }
    }
  }
  const manifest = [...lines.values()].sort((a, b) => a.rowIndex - b.rowIndex);
  return {
    images: [...images.entries()].sort(([a], [b]) => a - b).map(([, image]) => image),
    manifest,
    rendered: manifest.filter((l) => l.status === 'rendered').length,
    unchanged: manifest.filter((l) => l.status === 'unchanged').length,
    failed: manifest.filter((l) => l.status === 'failed').length,
    batchIds,
    renderSeconds,
  };
}

/**
 * Draws the template's sample once on the started thread, uncharged and unsaved, while this
 * thread reads and hashes the rows: a thread's first drawing (compiling the engine's code,
 * decoding the template's images, shaping the first text) takes ~0.1 s, which the few changed
 * rows of a CI run would otherwise wait for at the end. Drawn but not encoded: the thread takes
 * one job at a time, and an encoding here would hold back the first changed row by as long. A
 * sample that does not render is of no matter here.
 */
function warmUp(
  core: LocalCore,
  base: BatchBase,
  entry: ReturnType<LocalCore['renderer']['entry']>,
  target: string,
  brand: Awaited<ReturnType<typeof brandProfileFor>>,
): void {
  try {
    const job = core.renderer.prepare(
      { ...base, values: entry.template.sampleValues ?? {}, target },
      { brand, entry },
    );
    core.pool.run({ ...job, measureOnly: true }).catch(() => undefined);
  } catch {
    // Sample values the template refuses (or a missing image): nothing to warm up with.
  }
}

async function* manifestRows(core: LocalCore, batchId: string) {
  let cursor = 0;
  for (;;) {
    const page = await core.data.batches.manifest(batchId, cursor, 1000);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < 1000) return;
    cursor = last.rowIndex + 1;
  }
}
