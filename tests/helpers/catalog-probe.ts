import type { CatalogDetail, CatalogListItem } from '../../shared/api-schemas.js';
import type { ApiClient } from './test-server.js';

export async function listCatalog(server: ApiClient, query = ''): Promise<CatalogListItem[]> {
  const res = await server.api(`/v1/catalog${query}`);
  if (res.status !== 200) throw new Error(`catalog answered ${res.status}`);
  return (await res.json()) as CatalogListItem[];
}

export async function catalogDetail(server: ApiClient, id: string): Promise<CatalogDetail> {
  const res = await server.api(`/v1/catalog/${id}`);
  if (res.status !== 200) throw new Error(`catalog detail answered ${res.status}`);
  return (await res.json()) as CatalogDetail;
}

/** The first template whose variables satisfy `want`, with its detail. */
export async function findTemplate(
  server: ApiClient,
  want: (detail: CatalogDetail) => boolean,
): Promise<CatalogDetail> {
  for (const item of await listCatalog(server)) {
    const detail = await catalogDetail(server, item.id);
    if (want(detail)) return detail;
  }
  throw new Error('no template in the catalog matches');
}
