import fs from 'node:fs';
import path from 'node:path';
import type { LayoutName, Ratio, Template } from '../../shared/template-format.js';
import { RATIO_NAMES } from '../../shared/ratios.js';
import { foldForSearch } from '../../shared/fold-text.js';
import { checkTemplateText, writeCheckedTemplates } from './checked-templates.js';
import type { Taxonomy } from '../../shared/api-schemas.js';

/** A template with where its assets live. */
export interface CatalogEntry {
  template: Template;
  /** Folder that `{ asset }` paths are relative to. */
  assetsDir: string;
  ratios: Ratio[];
  /** A workspace template's version (every save makes one); absent for built-ins. */
  version?: number;
  /** Position in the curated order (folder names sorted). */
  order: number;
}

export interface CatalogFilter {
  category?: string | undefined;
  subCategory?: string | undefined;
  market?: string | undefined;
  q?: string | undefined;
  sort?: 'newest' | undefined;
}

export interface Catalog {
  list(filter?: CatalogFilter): CatalogEntry[];
  get(id: string): CatalogEntry | undefined;
  taxonomy(): Taxonomy;
}

export class CatalogLoadError extends Error {}

/** Ratios a template offers, in the canonical order. */
export function templateRatios(template: Template): Ratio[] {
  return RATIO_NAMES.filter((ratio) => template.layouts[ratio] !== undefined);
}

/**
 * Every layout a render may target: the ratios in the canonical order, then the print and
 * custom-size layouts in the template's order.
 */
export function templateTargets(template: Template): LayoutName[] {
  const ratios: readonly string[] = RATIO_NAMES;
  const others = Object.keys(template.layouts).filter((name) => !ratios.includes(name));
  return [...templateRatios(template), ...others];
}

export interface LoadCatalogOptions {
  /** Templates checked when this copy of the core was built (checked-templates.ts). */
  checkedRecords?: string;
}

/** Reads every `<dir>/<slug>/template.json`; an invalid built-in template is a startup error. */
export function loadCatalog(directory: string, options: LoadCatalogOptions = {}): Catalog {
  return createCatalog(catalogFiles(directory).map((file) => loadCatalogEntry(file, options)));
}

/**
 * Records every template of `<dir>` as checked, for the cores of a compiled copy
 * (checked-templates.ts).
 */
export function writeCheckedCatalog(directory: string, recordsFile: string): number {
  return writeCheckedTemplates(
    catalogFiles(directory).map((entry) => entry.file),
    recordsFile,
  );
}

/**
 * The same catalog, each template checked only when it is first asked for: a one-off command
 * that renders one template does not validate the other two dozen (a quarter of a second).
 * `list` and `taxonomy` load them all, with loadCatalog's checks.
 */
export function loadCatalogLazily(directory: string, options: LoadCatalogOptions = {}): Catalog {
  const files = catalogFiles(directory);
  const byId = new Map<string, CatalogFile>();
  for (const file of files) {
    const id = (JSON.parse(fs.readFileSync(file.file, 'utf8')) as { id?: unknown }).id;
    if (typeof id === 'string' && !byId.has(id)) byId.set(id, file);
  }
  const loaded = new Map<string, CatalogEntry>();
  let all: Catalog | undefined;
  const whole = () => (all ??= createCatalog(files.map((file) => loadCatalogEntry(file, options))));
  return {
    list: (filter) => whole().list(filter),
    taxonomy: () => whole().taxonomy(),
    get(id) {
      if (all) return all.get(id);
      const file = byId.get(id);
      if (!file) return undefined;
      let entry = loaded.get(id);
      if (!entry) {
        entry = loadCatalogEntry(file, options);
        loaded.set(id, entry);
      }
      return entry.template.id === id ? entry : undefined;
    },
  };
}

interface CatalogFile {
  slug: string;
  file: string;
  /** Position in the curated order (folder names sorted). */
  order: number;
}

function catalogFiles(directory: string): CatalogFile[] {
  const catalogDir = path.resolve(directory);
  return fs
    .readdirSync(catalogDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((slug, order) => ({ slug, order, file: path.join(catalogDir, slug, 'template.json') }))
    .filter((entry) => fs.existsSync(entry.file));
}

function loadCatalogEntry(
  { slug, file, order }: CatalogFile,
  { checkedRecords }: LoadCatalogOptions,
): CatalogEntry {
  const checked = checkTemplateText(fs.readFileSync(file, 'utf8'), checkedRecords);
  if (!checked.ok) throw new CatalogLoadError(`Template ${slug} is invalid: ${checked.problems}`);
  const { template } = checked;
  return { template, assetsDir: path.dirname(file), ratios: templateRatios(template), order };
}

export function createCatalog(entries: CatalogEntry[]): Catalog {
  const byId = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    if (byId.has(entry.template.id)) {
      throw new CatalogLoadError(`Two templates share the id ${entry.template.id}.`);
    }
    byId.set(entry.template.id, entry);
  }

  return {
    list(filter = {}) {
      const q = filter.q?.trim() ? foldForSearch(filter.q.trim()) : undefined;
      const same = (a: string, b: string | undefined) =>
        b === undefined || a.toLowerCase() === b.trim().toLowerCase();
      const result = entries.filter(
        ({ template }) =>
          same(template.category, filter.category) &&
          same(template.subCategory, filter.subCategory) &&
          same(template.market, filter.market) &&
          (q === undefined || foldForSearch(template.name).includes(q)),
      );
      if (filter.sort === 'newest') {
        result.sort(
          (a, b) => b.template.createdAt.localeCompare(a.template.createdAt) || a.order - b.order,
        );
      }
      return result;
    },
    get(id) {
      return byId.get(id);
    },
    taxonomy() {
      const categories = new Map<string, Set<string>>();
      for (const { template } of entries) {
        const subs = categories.get(template.category) ?? new Set<string>();
        subs.add(template.subCategory);
        categories.set(template.category, subs);
      }
      return {
        categories: [...categories.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, subs]) => ({ name, subCategories: [...subs].sort() })),
      };
    },
  };
}
