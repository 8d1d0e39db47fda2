import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EMPTY_BRAND_PROFILE } from '../shared/brand-profile.js';
import { layoutLayers, pageCount } from '../shared/layout-pages.js';
import { Template, type BarcodeSymbology, type Ratio } from '../shared/template-format.js';
import { RATIO_NAMES } from '../shared/ratios.js';
import { placeholderNames } from '../main/engine/format-value.js';
import type { ImageInput, RenderJob, RenderResult } from '../main/render/render-protocol.js';
import { renderJob } from '../main/engine/render-job.js';
import { resolveValues } from '../main/engine/resolve-values.js';

/**
 * Renders every ratio of built-in templates with their sample values and with stress values
 * (1-character and 300-character texts, decomposed Vietnamese), writes PNGs and prints what the
 * engine reported (shrunk sizes, truncation, overflow, missing glyphs).
 *
 *   npx tsx scripts/preview-template.ts <slug|all> [outDir]   (outDir defaults to a temp folder)
 *
 * Also the catalog test's source of sample and stress jobs, so both render the same thing.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_DIR = path.join(repoRoot, 'templates', 'catalog');

export interface CatalogTemplate {
  slug: string;
  dir: string;
  raw: unknown;
  template: Template;
}

/** Every `<slug>/template.json` of the catalog, parsed (throws on the first invalid one). */
export function readCatalogTemplates(dir = CATALOG_DIR): CatalogTemplate[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'template.json')),
    )
    .map((entry) => entry.name)
    .sort()
    .map((slug) => {
      const raw: unknown = JSON.parse(readFileSync(path.join(dir, slug, 'template.json'), 'utf8'));
      return { slug, dir: path.join(dir, slug), raw, template: Template.parse(raw) };
    });
}

export const STRESS_MODES = ['short', 'long'] as const;
export type StressMode = (typeof STRESS_MODES)[number];

const VIETNAMESE_SENTENCE =
  'Khuyến mãi đặc biệt mừng năm mới: giảm giá sâu cho những sản phẩm được yêu thích nhất, ' +
  'số lượng có hạn, nhanh tay đặt hàng để nhận quà tặng hấp dẫn và ưu đãi giao hàng miễn phí ' +
  'trên toàn quốc. Chúc quý khách một năm an khang thịnh vượng, vạn sự như ý, tiền vô như nước. ';

/** Decomposed (NFD) Vietnamese of exactly `length` characters once composed. */
export function longVietnamese(length = 300): string {
  let text = '';
  while (text.length < length) text += VIETNAMESE_SENTENCE;
  return text.slice(0, length).trimEnd().padEnd(length, '.').normalize('NFD');
}

/** One decomposed character: the stacked-mark case (Ở = O + horn + hook). */
export const SHORT_TEXT = 'Ở'.normalize('NFD');

/** Symbologies whose values vary in length: a longer value draws a denser code. */
const FREE_LENGTH: ReadonlySet<BarcodeSymbology> = new Set([
  'code128',
  'code39',
  'datamatrix',
  'pdf417',
  'azteccode',
]);

/**
 * Variables a barcode or a VietQR encodes, each with whether its value may be longer (Code 128,
 * DataMatrix …) or has a fixed form (EAN-13, GS1, a bank account).
 */
export function codeVariables(template: Template): Map<string, { freeLength: boolean }> {
  const found = new Map<string, { freeLength: boolean }>();
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layout ? layoutLayers(layout) : []) {
      if (layer.kind === 'qr' && typeof layer.value !== 'string')
        for (const field of Object.values(layer.value.vietqr))
          if (typeof field === 'object') found.set(field.var, { freeLength: false });
      if (layer.kind !== 'barcode') continue;
      for (const name of placeholderNames(layer.value))
        found.set(name, { freeLength: FREE_LENGTH.has(layer.symbology) });
    }
  }
  return found;
}

/** A code as long as the variable allows: the sample repeated, so it stays a valid value. */
export function longCode(sample: unknown, maxLength: number | undefined): unknown {
  if (typeof sample !== 'string' || !sample || !maxLength) return sample;
  return sample
    .repeat(Math.ceil(maxLength / sample.length))
    .slice(0, maxLength)
    .trim();
}

/**
 * Sample values with every text, long text and list item replaced by the stress text. A value
 * a barcode or VietQR encodes stays a code (prose is no EAN-13 nor account number): its sample,
 * or for a code of free length its sample repeated to the variable's maxLength.
 */
export function stressValues(template: Template, mode: StressMode): Record<string, unknown> {
  const values: Record<string, unknown> = { ...template.sampleValues };
  const text = mode === 'short' ? SHORT_TEXT : longVietnamese(300);
  const codes = codeVariables(template);
  for (const variable of template.variables) {
    const code = codes.get(variable.name);
    if (code) {
      const maxLength = 'maxLength' in variable ? variable.maxLength : undefined;
      if (mode === 'long' && code.freeLength)
        values[variable.name] = longCode(values[variable.name], maxLength);
      continue;
    }
    if (variable.type === 'text' || variable.type === 'longText') values[variable.name] = text;
    if (variable.type === 'list') {
      const count = mode === 'short' ? 1 : (variable.maxItems ?? 6);
      values[variable.name] = Array.from({ length: count }, () => text);
    }
  }
  return values;
}

/** `asset:<file>` names a file shipped in the template's folder (sample photos, logos). */
export function resolveCatalogImage(dir: string) {
  return (value: string, valuePath: string): ImageInput => {
    if (value.startsWith('asset:')) {
      const file = path.resolve(dir, value.slice('asset:'.length));
      if (!file.startsWith(dir + path.sep))
        throw new Error(`${valuePath}: ${value} leaves the template folder`);
      return { kind: 'file', path: file };
    }
    if (path.isAbsolute(value)) return { kind: 'file', path: value };
    throw new Error(`${valuePath}: previews take asset: or absolute paths, got ${value}`);
  };
}

export function buildJob(
  entry: CatalogTemplate,
  ratio: Ratio,
  rawValues: Record<string, unknown>,
): RenderJob {
  const values = resolveValues(entry.template, rawValues, {
    brand: EMPTY_BRAND_PROFILE,
    resolveImage: resolveCatalogImage(entry.dir),
  });
  return { template: entry.template, assetsDir: entry.dir, ratio, values, format: 'png' };
}

export function ratiosOf(template: Template): Ratio[] {
  return RATIO_NAMES.filter((ratio) => template.layouts[ratio] !== undefined);
}

function describe(result: RenderResult): string {
  if (!result.ok) return `FAILED ${result.code}: ${result.message}`;
  const notes = result.report.layers
    .filter((layer) => layer.overflow || layer.truncated)
    .map(
      (layer) =>
        `${layer.id}${layer.overflow ? ' OVERFLOW' : ''}${layer.truncated ? ' …' : ''}@${layer.fittedSize}`,
    );
  const missing = result.report.missingGlyphs.length
    ? ` missing ${result.report.missingGlyphs.join('')}`
    : '';
  return `${notes.join(', ') || 'ok'}${missing}`;
}

async function main(): Promise<void> {
  // Outside the repo by default, so a preview never shows up as untracked files.
  const [which = 'all', outArg = path.join(os.tmpdir(), 'render-desk-preview')] =
    process.argv.slice(2);
  const outDir = path.resolve(outArg);
  const entries = readCatalogTemplates().filter((e) => which === 'all' || e.slug === which);
  if (entries.length === 0) throw new Error(`No template "${which}" in the catalog`);
  let failures = 0;
  for (const entry of entries) {
    mkdirSync(path.join(outDir, entry.slug), { recursive: true });
    for (const ratio of ratiosOf(entry.template)) {
      const runs: Array<[string, Record<string, unknown>]> = [
        ['sample', entry.template.sampleValues],
        ...STRESS_MODES.map((mode): [string, Record<string, unknown>] => [
          mode,
          stressValues(entry.template, mode),
        ]),
      ];
      for (const [name, values] of runs) {
        const result = await renderJob(buildJob(entry, ratio, values));
        const file = path.join(
          outDir,
          entry.slug,
          `${ratio}${name === 'sample' ? '' : `.${name}`}.png`,
        );
        if (result.ok) writeFileSync(file, result.bytes);
        if (!result.ok || result.report.layers.some((l) => l.overflow)) failures++;
        console.log(`${entry.slug}/${ratio} ${name}: ${describe(result)}`);
      }
    }
  }
  for (const entry of entries) {
    // Print layouts with the sample values, a PNG per page (a badge's back is page 2).
    for (const [name, layout] of Object.entries(entry.template.layouts)) {
      if (!layout?.page) continue;
      for (let page = 1; page <= pageCount(layout); page += 1) {
        const job = { ...buildJob(entry, 'square', entry.template.sampleValues), ratio: name };
        const result = await renderJob({ ...job, page });
        if (result.ok)
          writeFileSync(path.join(outDir, entry.slug, `${name}.page${page}.png`), result.bytes);
        else failures++;
        console.log(`${entry.slug}/${name} page ${page}: ${describe(result)}`);
      }
    }
  }
  console.log(`PNGs in ${outDir}`);
  if (failures > 0) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
