import { loadCatalog, loadCatalogLazily, type Catalog } from '../catalog/load-catalog.js';
import { CATALOG_DIR, CHECKED_TEMPLATES_FILE } from './install-paths.js';

/** How a core loads the built-in templates; `dir` is for tests. */
export interface CatalogChoice {
  dir?: string;
  lazy?: boolean;
}

/**
 * The built-in templates: loaded and checked all at once (a server lists them at its start), or
 * each when it is first asked for (`lazy`: a command draws one or a few of them).
 */
export function builtInCatalog(choice: CatalogChoice = {}): Catalog {
  const dir = choice.dir ?? CATALOG_DIR;
  const options = { checkedRecords: CHECKED_TEMPLATES_FILE };
  return choice.lazy ? loadCatalogLazily(dir, options) : loadCatalog(dir, options);
}
