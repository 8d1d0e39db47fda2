import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { CreateBatchRequest, PreflightResult } from '../../shared/batch-schemas.js';
import type { BrandFill } from '../engine/resolve-values.js';
import { Errors, isAppError, type Problem } from '../../shared/errors.js';
import { brandProfileFor } from '../brand/named-brand.js';
import { openRecordRowSource } from '../ingest/rows/record-row-source.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { ImageInput, RenderJob } from '../render/render-protocol.js';
import type { BrandProfile } from '../../shared/brand-profile.js';
import { layoutLayers } from '../../shared/layout-pages.js';
import type { LayoutName, Template } from '../../shared/template-format.js';
import type { CatalogEntry } from '../catalog/load-catalog.js';
import type { CoreData } from '../data/core-data.js';
import { planBindings, type BindingPlan } from './bindings.js';
import { prepareRow, type RowContext } from './render-batch-row.js';
import type { SourceRow } from './source-records.js';
import { checkImagesDir, createImagesFolderResolver, type ImagesFolder } from './images-folder.js';
import { batchSheetPlan } from './batch-sheets.js';
import { checkChosenRows, onlyChosenRows } from './chosen-rows.js';
import { oncePerImage } from './once-per-image.js';
import { lowResolutionImages } from './print-resolution.js';
import { hiddenRequiredLayers } from './hidden-required-layers.js';

/** The warning code of a required variable every layer of which a row's rules hide. */
export const REQUIRED_LAYER_HIDDEN = 'required-layer-hidden';

/** Row problems are listed up to this many; the counts cover every row. */
export const PREFLIGHT_PROBLEM_LIMIT = 1000;

/**
 * With `verifyCodes`, the first this many valid rows are drawn as the batch draws them and their
 * codes read back: a sample that catches a template whose codes do not scan (too small, too
 * pale) without rendering a whole spreadsheet before the batch.
 */
export const PREFLIGHT_CODE_ROWS = 10;

export type PreflightRowProblem = PreflightResult['problems'][number];

export interface PreflightDeps {
  data: CoreData;
  renderer: RenderService;
  resolveImage: ImageResolver;
  /** Folders no `imagesDir` may be, be inside or contain (the data folder). */
  protectedDirs: readonly string[];
  /** Unpacks an uploaded zip of images (`imagesRef`) into `destination`, as a batch would. */
  unpackImages: (uploadId: string, destination: string) => Promise<string>;
  /** Where a pre-flight unpacks an `imagesRef` zip for the length of the check. */
  scratchDir: string;
  /** Source rows of an upload (csv/xlsx), streamed. */
  uploadRows: (
    uploadId: string,
    sheet: string | number | undefined,
  ) => Promise<{ fields: string[]; rows: AsyncIterable<SourceRow> }>;
}

/**
 * Draws the row without encoding, in the pool's batch lane, and turns the engine's report into
 * problems: text that had to be cut because even its minimum size did not fit, and characters
 * no bundled font draws.
 */
async function measureRow(
  deps: PreflightDeps,
  template: Template,
  job: RenderJob,
): Promise<{ problems: Problem[]; shortened: Problem[]; rules: RuleWarning[] }> {
  const result = await deps.renderer.run(job, { lane: 'batch', group: 'preflight' });
  const problems: Problem[] = [];
  const shortened: Problem[] = [];
  const layout = template.layouts[job.ratio];
  const layers = layout ? layoutLayers(layout) : [];
  for (const report of result.report.layers) {
    if (!report.truncated) continue;
    const layer = layers.find((l) => l.id === report.id);
    const bound =
      layer?.kind === 'text'
        ? /\{\{\s*([A-Za-z][A-Za-z0-9_]*)/.exec(layer.text)?.[1]
        : layer?.kind === 'list'
          ? layer.items.var
          : undefined;
    // The row still renders, its text ending in "…": a warning, not a failure.
    shortened.push({
      path: bound ? `values.${bound}` : `layers.${report.id}`,
      message: `the text is too long for its space: even at its smallest size it is cut short with "…"`,
    });
  }
  // Layout rules after fitting: the row renders, but not as the rules want it.
  const rules = (result.report.rules ?? []).map((violation) => ({
    code: `rule.${violation.rule}`,
    path: `layers.${violation.layer}`,
    message: violation.message,
  }));
  if (result.report.missingGlyphs.length > 0) {
    problems.push({
      path: 'values',
      message: `no bundled font can draw ${result.report.missingGlyphs.map((c) => `"${c}"`).join(', ')}`,
    });
  }
  return { problems, shortened, rules };
}

/**
 * Draws the row as the batch will (its format, scale, background and page) and reads its codes
 * back; throws code-unreadable, which becomes the row's problems, when one does not scan.
 */
async function verifyRowCodes(
  deps: PreflightDeps,
  request: CreateBatchRequest,
  job: RenderJob,
): Promise<void> {
  await deps.renderer.run(
    {
      ...job,
      verifyCodes: true,
      ...(request.scale !== undefined && request.scale !== 1 ? { scale: request.scale } : {}),
      ...(request.background === 'transparent' ? { transparent: true } : {}),
      ...(request.page !== undefined ? { page: request.page } : {}),
    },
    { lane: 'batch', group: 'preflight' },
  );
}

/** A broken layout rule, as a warning: which rule, which layer, what to change. */
interface RuleWarning {
  code: string;
  path: string;
  message: string;
}

/**
 * Validates every row of a prospective batch without rendering or charging (no competitor has
 * this): type errors, missing required values, unreadable or oversized images, text that would
 * have to shrink below its minimum size and characters the template's fonts lack.
 */
export async function preflight(
  request: CreateBatchRequest,
  deps: PreflightDeps,
): Promise<PreflightResult> {
  const { data, renderer } = deps;
  const entry = renderer.entry(request.templateId);
  // Several sizes: the rows' values are checked once, against the first layout.
  const target = renderer.ratioFor(entry, request.targets?.[0] ?? request.target);
  request.targets?.forEach((name, i) => renderer.ratioFor(entry, name, `targets[${i}]`));
  // Sheets that cannot be laid out are the batch's 422 too: say so before the rows are checked.
  if (request.sheets)
    batchSheetPlan(entry.template, target, { ...request, sheets: request.sheets });
  const brand = await brandProfileFor(data.brandProfiles, request.brand);
  const images = await imagesFolderFor(request, deps);
  try {
    return await checkRows(request, deps, entry, target, brand, images.folder);
  } finally {
    images.dispose();
  }
}

/**
 * The folder relative image paths resolve in, as the batch would have it: the `imagesDir` the
 * request names, or its `imagesRef` zip unpacked into a scratch folder removed afterwards.
 */
async function imagesFolderFor(
  request: CreateBatchRequest,
  deps: PreflightDeps,
): Promise<{ folder: ImagesFolder | null; dispose: () => void }> {
  if (request.imagesDir) {
    const dir = checkImagesDir(request.imagesDir, deps.protectedDirs);
    return { folder: { dir, managed: false }, dispose: () => {} };
  }
  if (!request.imagesRef) return { folder: null, dispose: () => {} };
  const upload = await deps.data.uploads.get(request.imagesRef);
  if (!upload || upload.kind !== 'zip') {
    throw Errors.validation([
      { path: 'imagesRef', message: 'name an uploaded .zip of images (POST /v1/uploads)' },
    ]);
  }
  removeStaleScratch(deps.scratchDir);
  const scratch = fs.mkdtempSync(path.join(deps.scratchDir, 'preflight-'));
  const dispose = () => fs.rmSync(scratch, { recursive: true, force: true });
  try {
    const dir = await deps.unpackImages(upload.id, path.join(scratch, 'images'));
    return { folder: { dir, managed: true }, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Scratch folders an interrupted pre-flight (a crash, a kill) left behind an hour ago. */
function removeStaleScratch(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(dir)) {
    const folder = path.join(dir, name);
    if (fs.statSync(folder).mtimeMs < hourAgo) fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function checkRows(
  request: CreateBatchRequest,
  deps: PreflightDeps,
  entry: CatalogEntry,
  target: LayoutName,
  brand: BrandProfile,
  imagesFolder: ImagesFolder | null,
): Promise<PreflightResult> {
  const { data, renderer } = deps;
  const source = await openSource(request, deps);
  const plan: BindingPlan = planBindings(entry.template, source.fields, request.bindings ?? {});
  const imageChecks = new Map<string, Promise<string | null>>();
  const baseResolver = createImagesFolderResolver(imagesFolder, deps.resolveImage);
  // The rows as the batch would prepare them (one layout checked: see preflight()).
  const rowContext: RowContext = {
    batchId: 'preflight',
    today: new Date().toISOString().slice(0, 10),
    sourceTotal: await sourceTotalFor(request, deps, plan),
    templateId: entry.template.id,
    format: request.format,
    quality: null,
    outputOptions: {},
    sizes: { target, targets: null },
    entry,
    brand,
    plan,
    resolveImage: baseResolver,
  };

  const problems: PreflightRowProblem[] = [];
  const brandGaps = new Map<string, { role: string; rows: number }>();
  const shortened = new Map<string, { message: string } & RowTally>();
  const ruleWarnings = new Map<string, RuleWarning & RowTally>();
  // Required variables whose layers a row's visibleWhen rules all hide.
  const hiddenRequired = new Map<string, RuleWarning & RowTally>();
  // Print layouts: images under 300 dpi where they print, by variable.
  const lowResolution = new Map<string, { message: string } & RowTally>();
  const imageSizes = new Map<string, Promise<{ width: number; height: number } | null>>();
  const layout = entry.template.layouts[target];
  // Some rows only (a rerun of failed rows): they are checked and counted with their own indexes.
  const chosen = 'sourceRef' in request.source ? (request.source.rows ?? null) : null;
  if (chosen) checkChosenRows(chosen, Number.POSITIVE_INFINITY);
  let sheetRows = 0;
  const counted = (async function* () {
    for await (const row of source.rows) {
      sheetRows = row.rowIndex + 1;
      yield row;
    }
  })();
  let total = 0;
  let invalid = 0;
  let codesVerified = 0;
  for await (const row of onlyChosenRows(counted, chosen)) {
    total += 1;
    const errors: Problem[] = (row.problems ?? []).map((message) => ({ path: 'row', message }));
    const images: { path: string; input: ImageInput }[] = [];
    const brandFill: BrandFill[] = [];
    try {
      const job = await prepareRow(
        renderer,
        rowContext,
        { rowIndex: row.rowIndex, record: row.cells },
        {
          brandFill,
          resolveImage: (value, valuePath) => {
            const input = baseResolver(value, valuePath);
            images.push({ path: valuePath, input });
            return input;
          },
        },
      );
      for (const hidden of layout ? hiddenRequiredLayers(entry.template, layout, job.values) : [])
        countRow(
          hiddenRequired,
          hidden.variable,
          {
            code: REQUIRED_LAYER_HIDDEN,
            path: `values.${hidden.variable}`,
            message: `"${hidden.variable}" is required, but the visibleWhen rules of ${hidden.layers.length === 1 ? 'the layer that draws it' : 'every layer that draws it'} (${hidden.layers.join(', ')}) hide it: the image leaves it out`,
          },
          row.rowIndex,
        );
      for (const image of images) {
        const problem = await checkImage(image.input, imageChecks);
        if (problem) errors.push({ path: image.path, message: problem });
      }
      if (errors.length === 0 && layout?.page) {
        for (const warning of await lowResolutionImages(layout, images, imageSizes))
          countRow(lowResolution, warning.path, { message: warning.message }, row.rowIndex);
      }
      if (errors.length === 0) {
        const measured = await measureRow(deps, entry.template, {
          ...job,
          measureOnly: true,
          checkRules: true,
        });
        errors.push(...measured.problems);
        for (const warning of measured.shortened)
          countRow(shortened, warning.path, { message: warning.message }, row.rowIndex);
        for (const warning of measured.rules)
          countRow(ruleWarnings, `${warning.code} ${warning.path}`, warning, row.rowIndex);
      }
      if (errors.length === 0 && request.verifyCodes && codesVerified < PREFLIGHT_CODE_ROWS) {
        codesVerified += 1;
        await verifyRowCodes(deps, request, job);
      }
    } catch (error) {
      if (isAppError(error) && error.problems) errors.push(...error.problems);
      else
        errors.push({
          path: 'row',
          message: error instanceof Error ? error.message : String(error),
        });
    }
    for (const gap of brandFill) {
      if (gap.source !== 'empty') continue;
      const seen = brandGaps.get(gap.variable) ?? { role: gap.role, rows: 0 };
      seen.rows += 1;
      brandGaps.set(gap.variable, seen);
    }
    if (errors.length > 0) {
      invalid += 1;
      if (problems.length < PREFLIGHT_PROBLEM_LIMIT)
        problems.push({ rowIndex: row.rowIndex, line: row.line, errors });
    }
    // Keep the server responsive on big sheets.
    if (total % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const { balance } = await data.ledger.account();
  const perRow = request.targets?.length ?? 1;
  if (chosen) checkChosenRows(chosen, sheetRows);
  return {
    templateId: entry.template.id,
    target,
    total,
    valid: total - invalid,
    invalid,
    // One image, and one credit, per row and layout.
    images: total * perRow,
    cost: total * perRow,
    balance,
    sufficient: balance >= total * perRow,
    fields: source.fields,
    mapping: plan.variables.map(({ variable, source: from }) => ({
      variable: variable.name,
      source: from,
    })),
    problems,
    problemsTruncated: invalid > problems.length,
    ...(request.verifyCodes ? { codesVerified } : {}),
    warnings: [
      ...[...brandGaps].map(([variable, gap]) => ({
        path: `values.${variable}`,
        message: `${gap.role} is empty in the brand profile and the template has no default: "${variable}" is left empty. Fill the brand kit or map a column to it.`,
        rows: gap.rows,
      })),
      ...[...shortened, ...lowResolution].map(([path, gap]) => ({
        path,
        message: withRows(gap.message, gap),
        rows: gap.rows,
      })),
      ...[...ruleWarnings.values(), ...hiddenRequired.values()].map((rule) => ({
        code: rule.code,
        path: rule.path,
        message: withRows(rule.message, rule),
        rows: rule.rows,
      })),
    ],
  };
}

/** A warning counted over the rows that have it, the first few of them kept to be named. */
interface RowTally {
  rows: number;
  first: number[];
}

const ROWS_NAMED = 5;

/** Counts one more row with `warning`, which is kept as first seen under `key`. */
function countRow<W extends object>(
  tallies: Map<string, W & RowTally>,
  key: string,
  warning: W,
  rowIndex: number,
): void {
  const seen = tallies.get(key) ?? { ...warning, rows: 0, first: [] };
  seen.rows += 1;
  if (seen.first.length < ROWS_NAMED) seen.first.push(rowIndex);
  tallies.set(key, seen);
}

/** The message with the rows that have it, as a person counts them: "… (rows 1, 4, …)". */
function withRows(message: string, tally: RowTally): string {
  const named = tally.first.map((i) => i + 1).join(', ');
  return `${message} (rows ${named}${tally.rows > tally.first.length ? ', …' : ''})`;
}

/**
 * The N of `{ generated: total }`, as the batch will count it: the records, or the sheet's rows
 * read once more (only when a variable is bound to it; a batch counts them at upload).
 */
async function sourceTotalFor(
  request: CreateBatchRequest,
  deps: PreflightDeps,
  plan: BindingPlan,
): Promise<number> {
  if ('records' in request.source) return request.source.records.length;
  const bound = plan.variables.some(
    ({ source }) => 'generated' in source && source.generated === 'total',
  );
  if (!bound) return 0;
  let rows = 0;
  for await (const _row of (await openSource(request, deps)).rows) rows += 1;
  return rows;
}

async function openSource(
  request: CreateBatchRequest,
  deps: PreflightDeps,
): Promise<{ fields: string[]; rows: AsyncIterable<SourceRow> }> {
  if ('records' in request.source) return openRecordRowSource(request.source.records);
  return deps.uploadRows(request.source.sourceRef, request.source.sheet);
}

/** Decodes each distinct image once (bounded size): unreadable and oversized images show up here. */
function checkImage(
  input: ImageInput,
  cache: Map<string, Promise<string | null>>,
): Promise<string | null> {
  return oncePerImage(cache, input, (data) =>
    sharp(data)
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer()
      .then(
        () => null,
        (error: Error) =>
          /pixel limit/i.test(error.message)
            ? 'the image is larger than the 268-megapixel limit'
            : `the image cannot be read (${error.message.split('\n')[0]})`,
      ),
  );
}
