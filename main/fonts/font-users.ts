import { layoutLayers } from '../../shared/layout-pages.js';
import type { BrandProfileRecord } from '../data/types/brand-profiles.js';
import type { WorkspaceTemplateRecord } from '../store/workspace-templates-repository.js';

/** Something that would lose its font if a custom family were deleted. */
export interface FontUser {
  kind: 'template' | 'brand';
  id: string;
  name: string;
}

/**
 * Live workspace templates whose layers name the family (or whose brand font variables default
 * to it) and brand profiles whose heading or body font is the family; case-insensitive, as the
 * engine resolves families.
 */
export function fontUsers(
  family: string,
  sources: { templates: WorkspaceTemplateRecord[]; brands: BrandProfileRecord[] },
): FontUser[] {
  const key = family.trim().toLowerCase();
  const same = (name: unknown) => typeof name === 'string' && name.trim().toLowerCase() === key;
  const users: FontUser[] = [];
  for (const record of sources.templates) {
    const { template } = record;
    const inLayers = Object.values(template.layouts).some((layout) =>
      layoutLayers(layout).some(
        (layer) => (layer.kind === 'text' || layer.kind === 'list') && same(layer.font.family),
      ),
    );
    const inDefaults = template.variables.some(
      (variable) =>
        variable.bindsTo?.startsWith('brand.font.') === true &&
        'default' in variable &&
        same(variable.default),
    );
    if (inLayers || inDefaults)
      users.push({ kind: 'template', id: record.id, name: template.name });
  }
  for (const brand of sources.brands) {
    if (same(brand.profile.fonts.heading) || same(brand.profile.fonts.body)) {
      users.push({ kind: 'brand', id: brand.id, name: brand.name });
    }
  }
  return users;
}
