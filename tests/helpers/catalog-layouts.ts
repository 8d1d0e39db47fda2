import type { LayoutName, Template } from '../../shared/template-format.js';
import { type CatalogTemplate, buildJob, ratiosOf } from '../../scripts/preview-template.js';

/** The five ratios, then the print layouts (badge, ticket, a4) under their own names. */
export function layoutNamesOf(template: Template): LayoutName[] {
  const ratios: LayoutName[] = ratiosOf(template);
  const print = Object.keys(template.layouts).filter((name) => template.layouts[name]?.page);
  return [...ratios, ...print.sort()];
}

/** A render job of any layout: values resolve the same for all, the job then names the layout. */
export function jobFor(entry: CatalogTemplate, name: LayoutName, values: Record<string, unknown>) {
  return { ...buildJob(entry, 'square', values), ratio: name };
}
