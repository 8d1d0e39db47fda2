import path from 'node:path';
import { AppError, Errors } from '../../shared/errors.js';
import type { BrandProfile } from '../../shared/brand-profile.js';
import { pageCount } from '../../shared/layout-pages.js';
import { outputOptionProblems } from '../../shared/output-options.js';
import { MAX_CANVAS_SIDE } from '../../shared/template-limits.js';
import type { LayoutName, Variable } from '../../shared/template-format.js';
import { templateTargets, type CatalogEntry } from '../catalog/load-catalog.js';
import { barcodeProblems } from '../engine/barcode/barcode-problems.js';
import { linkProblems } from '../engine/link-problems.js';
import { vietQrProblems } from '../engine/vietqr/vietqr-problems.js';
import { resolveValues, type BrandFill } from '../engine/resolve-values.js';
import { brandValue } from '../../shared/brand-profile.js';
import type { FetchedImages } from '../remote-images/remote-images.js';
import { ImageUrlFailure } from '../remote-images/image-url-failure.js';
import { sheetGeometry, sheetPixelSize } from '../engine/sheet-geometry.js';
import type { Lane, RenderPool } from './render-pool.js';
import type {
  CustomFontFace,
  ImageInput,
  OutputFormat,
  RenderJob,
  RenderSuccess,
} from './render-protocol.js';

export interface RenderRequestInput {
  templateId: string;
  values: Record<string, unknown>;
  target?: string | undefined;
  format: OutputFormat;
  quality?: number | undefined;
  pngCompression?: 'fast' | 'balanced' | 'small' | undefined;
  outputWidth?: number | undefined;
  scale?: number | undefined;
  background?: 'template' | 'transparent' | undefined;
  cropMarks?: boolean | undefined;
  page?: number | undefined;
  /** Read the output's codes back from its pixels (a batch's `verifyCodes`). */
  verifyCodes?: boolean | undefined;
}

export type ImageResolver = (value: string, path: string) => ImageInput;

export interface TemplateLookup {
  get(id: string): CatalogEntry | undefined;
}

export interface RenderServiceDeps {
  templates: TemplateLookup;
  pool: RenderPool;
  brandProfile: () => BrandProfile;
  resolveImage: ImageResolver;
  /** The user's uploaded fonts, carried by every job so any worker can draw them. */
  customFonts?: () => CustomFontFace[];
  /** Fetches http(s) image values when the user turned image URLs on (main/remote-images). */
  remoteImages?: { fetchAll(urls: readonly string[]): Promise<FetchedImages> };
}

export interface PrepareOptions {
  brand?: BrandProfile;
  entry?: CatalogEntry;
  resolveImage?: ImageResolver;
  /** Receives where omitted brand-bound values came from, or that they were left empty. */
  brandFill?: BrandFill[];
  /** Image URLs fetched beforehand (`prepareWithImageUrls`). */
  fetchedImages?: FetchedImages;
  /** The custom fonts, read once by a caller preparing many jobs (else read for each job). */
  customFonts?: CustomFontFace[];
}

const HTTP_URL = /^https?:\/\//i;

/**
 * Turns a request into a job (template, ratio, validated values) and runs it. Single renders and
 * batch rows both come through here, which is what makes a batch row the same render as the
 * single endpoint's.
 */
export class RenderService {
  constructor(private readonly deps: RenderServiceDeps) {}

  entry(templateId: string): CatalogEntry {
    const entry = this.deps.templates.get(templateId);
    if (!entry) throw Errors.notFound('template', templateId);
    return entry;
  }

  /** The layout a request targets: a ratio, or a print or custom-size layout's name. */
  ratioFor(entry: CatalogEntry, target: string | undefined, path = 'target'): LayoutName {
    const targets = templateTargets(entry.template);
    const ratio = target ?? entry.ratios[0] ?? targets[0];
    if (!ratio || !targets.includes(ratio)) {
      throw Errors.validation([
        {
          path,
          message: `"${target}" is not a layout of ${entry.template.id}; use one of ${targets.join(', ')}`,
        },
      ]);
    }
    return ratio;
  }

  /**
   * Validates everything that can be checked without drawing; throws 404/422. A batch passes the
   * template and brand it pinned, and a resolver that knows its images folder.
   */
  prepare(input: RenderRequestInput, options: PrepareOptions = {}): RenderJob {
    const entry = options.entry ?? this.entry(input.templateId);
    const ratio = this.ratioFor(entry, input.target);
    checkOutputOptions(entry, ratio, input);
    const resolveImage = options.resolveImage ?? this.deps.resolveImage;
    const fetched = options.fetchedImages;
    const values = resolveValues(entry.template, input.values, {
      brand: options.brand ?? this.deps.brandProfile(),
      resolveImage: (value, valuePath) =>
        resolveTemplateAsset(entry, value) ??
        fetchedImage(fetched, value, valuePath) ??
        resolveImage(value, valuePath),
      ...(options.brandFill ? { brandFill: options.brandFill } : {}),
    });
    const layout = entry.template.layouts[ratio];
    const codes = layout ? barcodeProblems(entry.template, layout, values) : [];
    if (codes.length > 0) throw Errors.barcodeInvalid(codes);
    const links = layout ? linkProblems(entry.template, layout, values) : [];
    if (links.length > 0) throw Errors.validation(links);
    const payments = layout ? vietQrProblems(entry.template, layout, values) : [];
    if (payments.length > 0) throw Errors.vietQrInvalid(payments);
    return {
      template: entry.template,
      assetsDir: entry.assetsDir,
      ratio,
      values,
      format: input.format,
      ...(input.quality !== undefined ? { quality: input.quality } : {}),
      ...(input.pngCompression !== undefined ? { pngCompression: input.pngCompression } : {}),
      ...(input.outputWidth !== undefined ? { outputWidth: input.outputWidth } : {}),
      ...(input.scale !== undefined && input.scale !== 1 ? { scale: input.scale } : {}),
      ...(input.background === 'transparent' ? { transparent: true } : {}),
      ...(input.cropMarks ? { cropMarks: true } : {}),
      ...(input.page !== undefined ? { page: input.page } : {}),
      ...(input.verifyCodes ? { verifyCodes: true } : {}),
      ...(this.deps.customFonts ? { fonts: options.customFonts ?? this.deps.customFonts() } : {}),
    };
  }

  /**
   * `prepare`, after fetching the request's http(s) image values (resolvers are synchronous, a
   * fetch is not). With image URLs off nothing is fetched and a URL value is refused as before.
   */
  async prepareWithImageUrls(
    input: RenderRequestInput,
    options: PrepareOptions = {},
  ): Promise<RenderJob> {
    const remote = this.deps.remoteImages;
    if (!remote) return this.prepare(input, options);
    const entry = options.entry ?? this.entry(input.templateId);
    const urls = imageUrlValues(entry.template.variables, input.values, options.brand);
    if (urls.length === 0) return this.prepare(input, { ...options, entry });
    return this.prepare(input, { ...options, entry, fetchedImages: await remote.fetchAll(urls) });
  }

  async run(job: RenderJob, options: { lane?: Lane; group?: string } = {}): Promise<RenderSuccess> {
    const result = await this.deps.pool.run(job, options);
    if (result.ok) return result;
    if (result.code === 'image-invalid') {
      throw Errors.imageInvalid(result.path ?? 'values', result.message);
    }
    if (result.code === 'code-unreadable') throw Errors.codeUnreadable(result.problems ?? []);
    throw new AppError('render-failed', result.message);
  }
}

/** The http(s) values of image variables, given or coming from the brand. */
function imageUrlValues(
  variables: readonly Variable[],
  values: Record<string, unknown>,
  brand: BrandProfile | undefined,
): string[] {
  const urls: string[] = [];
  for (const variable of variables) {
    if (variable.type !== 'image') continue;
    const given = values[variable.name];
    const value =
      typeof given === 'string' && given.trim() !== ''
        ? given
        : brand && variable.bindsTo
          ? brandValue(brand, variable.bindsTo)
          : undefined;
    if (typeof value === 'string' && HTTP_URL.test(value.trim())) urls.push(value.trim());
  }
  return urls;
}

function fetchedImage(
  fetched: FetchedImages | undefined,
  value: string,
  valuePath: string,
): ImageInput | null {
  const found = fetched?.get(value.trim());
  if (!found) return null;
  if (found instanceof ImageUrlFailure) throw found.at(valuePath);
  return found;
}

/**
 * 422 for options the format cannot honour, and for a raster output over the engine's canvas
 * limit (a sheet of 1754 px at scale 3 would be 5262 px).
 */
export function checkOutputOptions(
  entry: CatalogEntry,
  target: LayoutName,
  input: Pick<RenderRequestInput, 'format' | 'scale' | 'background' | 'cropMarks' | 'page'>,
): void {
  const problems = outputOptionProblems(input);
  const layout = entry.template.layouts[target];
  const pages = layout ? pageCount(layout) : 1;
  if (input.page !== undefined && input.page > pages) {
    problems.push({
      path: 'page',
      message: `the ${target} layout has ${pages === 1 ? '1 page' : `${pages} pages`}; use a page from 1 to ${pages}`,
    });
  }
  if (layout && input.format !== 'pdf' && problems.length === 0) {
    const size = sheetPixelSize(sheetGeometry(layout, input.cropMarks === true), input.scale ?? 1);
    if (Math.max(size.width, size.height) > MAX_CANVAS_SIDE) {
      problems.push({
        path: 'scale',
        message: `the output would be ${size.width} × ${size.height} px, over the ${MAX_CANVAS_SIDE} px limit; use a smaller scale`,
      });
    }
  }
  if (problems.length > 0) throw Errors.validation(problems);
}

/**
 * `asset:<file>` names an image shipped with the template (sample photos, default logos). Only
 * files inside the template's own folder are reachable.
 */
export function resolveTemplateAsset(entry: CatalogEntry, value: string): ImageInput | null {
  if (!value.startsWith('asset:')) return null;
  const root = path.resolve(entry.assetsDir);
  const file = path.resolve(root, value.slice('asset:'.length));
  if (!file.startsWith(root + path.sep)) return null;
  return { kind: 'file', path: file };
}

/** `x-render-warnings`: the brand roles an omitted brand-bound variable found empty. */
export function describeBrandGaps(fill: readonly BrandFill[]): string | undefined {
  const empty = [...new Set(fill.filter((f) => f.source === 'empty').map((f) => f.role))];
  return empty.length > 0 ? empty.map((role) => `${role} empty`).join(', ') : undefined;
}

/** `x-brand-fill`: where each omitted brand-bound variable's value came from. */
export function describeBrandFill(fill: readonly BrandFill[]): string | undefined {
  return fill.length > 0 ? fill.map((f) => `${f.variable}=${f.source}`).join(', ') : undefined;
}
