import type { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import type { Catalog, CatalogEntry } from './load-catalog.js';

/**
 * Every template a request may name: the built-in catalog (`tmpl_…`) and the workspace
 * (`wtpl_…`). Renders, batches, pre-flight and template-fields look ids up here, which is what
 * makes a `wtpl_` id work anywhere a `tmpl_` id does.
 */
export class TemplateLibrary {
  constructor(
    private readonly catalog: Catalog,
    private readonly workspace: WorkspaceTemplates,
  ) {}

  get(id: string): CatalogEntry | undefined {
    return id.startsWith('wtpl_') ? this.workspace.entry(id) : this.catalog.get(id);
  }
}
