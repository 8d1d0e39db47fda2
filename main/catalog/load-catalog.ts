import fs from 'node:fs';
import path from 'node:path';
import {
  Template,
  RATIO_NAMES,
  type LayoutName,
  type Ratio,
} from '../../shared/template-format.js';
import { foldForSearch } from '../../shared/fold-text.js';
import { zodProblems } from '../../shared/zod-problems.js';
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

/** Reads every `<dir>/<slug>/template.json`; an invalid built-in template is a startup error. */
export function loadCatalog(directory: string): Catalog {
  const catalogDir = path.resolve(directory);
  const slugs = fs
    .readdirSync(catalogDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const entries: CatalogEntry[] = [];
  for (const [order, slug] of slugs.entries()) {
    const file = path.join(catalogDir, slug, 'template.json');
    if (!fs.existsSync(file)) continue;
    const parsed = Template.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) {
      const problems = zodProblems(parsed.error)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ');
      throw new CatalogLoadError(`Template ${slug} is invalid: ${problems}`);
    }
    const template = parsed.data;
    entries.push({
      template,
      assetsDir: path.dirname(file),
      ratios: templateRatios(template),
      order,
    });
  }
  return createCatalog(entries);
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
