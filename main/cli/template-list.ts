import type { Template } from '../../shared/template-format.js';
import {
  createCatalog,
  templateTargets,
  type CatalogEntry,
  type CatalogFilter,
} from '../catalog/load-catalog.js';
import type { LocalCore } from './local-core.js';

/**
 * The templates `templates list` and the list_templates tool show: the built-in ones, then the
 * workspace's, each list filtered by name and category.
 */
export function listTemplates(
  core: Pick<LocalCore, 'catalog' | 'workspace'>,
  filter: Pick<CatalogFilter, 'q' | 'category'>,
): CatalogEntry[] {
  const workspace = createCatalog(
    core.workspace.list().map((record, order) => ({ ...core.workspace.toEntry(record), order })),
  );
  return [...core.catalog.list(filter), ...workspace.list(filter)];
}

/** A template as a list shows it: what it is called and where it belongs. */
export function templateSummary(template: Template) {
  return {
    id: template.id,
    name: template.name,
    category: template.category,
    subCategory: template.subCategory,
    market: template.market,
    // Ratios first, then print and custom-size layouts: every --target a render takes.
    layouts: templateTargets(template),
  };
}
