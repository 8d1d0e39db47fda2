import type { CatalogDetail, CatalogListItem } from '../../shared/api-schemas.js';
import type { CoreProcess } from './harness.js';

/** The reference template when the catalog has it, else the first with a text variable. */
export async function referenceTemplate(core: CoreProcess): Promise<CatalogDetail> {
  const items = (await (await core.api('/v1/catalog')).json()) as CatalogListItem[];
  const ids = ['tmpl_product_promo', ...items.map((i) => i.id)];
  for (const id of ids) {
    const res = await core.api(`/v1/catalog/${id}`);
    if (res.status !== 200) continue;
    const detail = (await res.json()) as CatalogDetail;
    if (detail.variables.some((v) => v.type === 'text' && !v.bindsTo)) return detail;
  }
  throw new Error('no template with a text variable');
}
