import {
  CatalogDetail,
  CatalogList,
  type CatalogListItem,
  CatalogQuery,
  Taxonomy,
  TemplateIdParams,
  type VariableDescription,
} from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import type { Ratio, Template, Variable } from '../../../../shared/template-format.js';
import { RATIO_SIZES } from '../../../../shared/ratios.js';
import { templateTargets, type CatalogEntry } from '../../../catalog/load-catalog.js';
import { requestBaseUrl } from '../../request-base-url.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';
import { pageCount } from '../../../../shared/layout-pages.js';

/** Thumbnail links live long enough to page through a catalog, short enough to be useless later. */
export const THUMBNAIL_URL_TTL_SECONDS = 15 * 60;

export function registerCatalogRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const thumbnailUrl = (base: string, id: string, ratio: Ratio) =>
    base + deps.signer.sign(`/v1/thumbnails/${id}/${ratio}.png`, THUMBNAIL_URL_TTL_SECONDS).url;

  const listItem = (base: string, entry: CatalogEntry): CatalogListItem => ({
    id: entry.template.id,
    name: entry.template.name,
    category: entry.template.category,
    subCategory: entry.template.subCategory,
    market: entry.template.market,
    thumbnail: thumbnailUrl(base, entry.template.id, entry.ratios[0] as Ratio),
    ratios: entry.ratios,
    createdAt: entry.template.createdAt,
  });

  registry.add(
    {
      method: 'GET',
      url: '/v1/catalog',
      summary: 'List built-in templates',
      tags: ['catalog'],
      query: CatalogQuery,
      responses: { 200: { description: 'Catalog items', schema: CatalogList } },
    },
    async ({ query, request }) => {
      const base = requestBaseUrl(request);
      return deps.catalog.list(query).map((entry) => listItem(base, entry));
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/catalog/taxonomy',
      summary: 'Categories and their sub-categories',
      tags: ['catalog'],
      responses: { 200: { description: 'Taxonomy', schema: Taxonomy } },
    },
    async () => deps.catalog.taxonomy(),
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/catalog/:id',
      summary: 'A template with its variables',
      tags: ['catalog'],
      params: TemplateIdParams,
      responses: {
        200: { description: 'Catalog detail', schema: CatalogDetail },
        404: problem('Unknown template'),
      },
    },
    async ({ params, request }) => {
      // A workspace id works here too (spec: accepted anywhere a tmpl_ id is).
      const entry = deps.templates.get(params.id);
      if (!entry) throw Errors.notFound('template', params.id);
      return catalogDetail(entry, (ratio) =>
        thumbnailUrl(requestBaseUrl(request), entry.template.id, ratio),
      );
    },
  );
}

/** A layout's size as the catalog lists it; print layouts with their page. */
function describeLayout(name: string, template: Template): CatalogDetail['layouts'][string] {
  const layout = template.layouts[name];
  const width = layout?.width ?? 0;
  const height = layout?.height ?? 0;
  const pages = layout ? pageCount(layout) : 1;
  const more = pages > 1 ? { pages } : {};
  if (layout?.page) {
    const { unit, dpi, bleed, safe } = layout.page;
    return {
      width,
      height,
      aspect: `${layout.page.width} × ${layout.page.height} ${unit} print at ${dpi} dpi`,
      page: { unit, width: layout.page.width, height: layout.page.height, dpi, bleed, safe },
      ...more,
    };
  }
  const ratio = RATIO_SIZES[name as Ratio] as (typeof RATIO_SIZES)[Ratio] | undefined;
  return { width, height, aspect: ratio?.aspect ?? `${width} × ${height} px`, ...more };
}

export function catalogDetail(
  entry: CatalogEntry,
  thumbnailUrl: (ratio: Ratio) => string,
): CatalogDetail {
  const { template, ratios } = entry;
  const first = ratios[0] as Ratio;
  const layout = template.layouts[first];
  return {
    id: template.id,
    name: template.name,
    ...(template.description ? { description: template.description } : {}),
    category: template.category,
    subCategory: template.subCategory,
    market: template.market,
    createdAt: template.createdAt,
    dimensions: { width: layout?.width ?? 0, height: layout?.height ?? 0 },
    aspect: RATIO_SIZES[first].aspect,
    // A print template's own output is a PDF of its print layout.
    format:
      template.primaryLayout && template.layouts[template.primaryLayout]?.page ? 'pdf' : 'png',
    ratios,
    targets: templateTargets(template),
    primaryTarget:
      template.primaryLayout && template.layouts[template.primaryLayout]
        ? template.primaryLayout
        : first,
    layouts: Object.fromEntries(
      templateTargets(template).map((target) => [target, describeLayout(target, template)]),
    ),
    thumbnail: thumbnailUrl(first),
    thumbnails: Object.fromEntries(ratios.map((ratio) => [ratio, thumbnailUrl(ratio)])),
    variables: template.variables.map((variable) => describeVariable(variable, template.locale)),
    sampleValues: template.sampleValues,
  };
}

export function describeVariable(variable: Variable, templateLocale: string): VariableDescription {
  const base: VariableDescription = {
    name: variable.name,
    type: variable.type,
    bindsTo: variable.bindsTo ?? null,
    required: variable.required,
    ...(variable.label !== undefined ? { label: variable.label } : {}),
    ...(variable.description !== undefined ? { description: variable.description } : {}),
    ...(variable.default !== undefined ? { default: variable.default } : {}),
  };
  switch (variable.type) {
    case 'text':
    case 'longText':
      return { ...base, ...(variable.maxLength ? { maxLength: variable.maxLength } : {}) };
    case 'number':
      return {
        ...base,
        ...(variable.min !== undefined ? { min: variable.min } : {}),
        ...(variable.max !== undefined ? { max: variable.max } : {}),
        ...(variable.format ? { format: variable.format } : {}),
        locale: variable.locale ?? templateLocale,
      };
    case 'date':
      return {
        ...base,
        ...(variable.format ? { format: variable.format } : {}),
        locale: variable.locale ?? templateLocale,
      };
    case 'enum':
      return { ...base, options: variable.options };
    case 'list':
      return { ...base, ...(variable.maxItems ? { maxItems: variable.maxItems } : {}) };
    default:
      return base;
  }
}
