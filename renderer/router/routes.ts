/**
 * Client-side routes under /ui/ (the core serves index.html for every /ui/* path). The path is
 * kept in the store; links and navigate() push history entries.
 */
export const UI_BASE = '/ui';

export type Route =
  | { name: 'catalog' }
  | { name: 'template'; id: string }
  | { name: 'workspace' }
  | { name: 'editor'; id: string }
  | { name: 'wizard'; templateId: string | null }
  | { name: 'batches' }
  | { name: 'batch'; id: string }
  | { name: 'brand' }
  | { name: 'credits' }
  | { name: 'api' }
  | { name: 'settings' }
  | { name: 'not-found'; path: string };

export function parseRoute(pathname: string, search: string): Route {
  const path = pathname.startsWith(UI_BASE) ? pathname.slice(UI_BASE.length) : pathname;
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  const [first, second] = parts;
  switch (first) {
    case undefined:
    case 'catalog':
      return { name: 'catalog' };
    case 'templates':
      return second ? { name: 'template', id: second } : { name: 'catalog' };
    case 'my-templates':
      return { name: 'workspace' };
    case 'editor':
      return second ? { name: 'editor', id: second } : { name: 'workspace' };
    case 'batch':
      return { name: 'wizard', templateId: query.get('template') };
    case 'batches':
      return second ? { name: 'batch', id: second } : { name: 'batches' };
    case 'brand':
      return { name: 'brand' };
    case 'credits':
      return { name: 'credits' };
    case 'api':
      return { name: 'api' };
    case 'settings':
      return { name: 'settings' };
    default:
      return { name: 'not-found', path };
  }
}

export function routePath(route: Route): string {
  switch (route.name) {
    case 'catalog':
      return `${UI_BASE}/`;
    case 'template':
      return `${UI_BASE}/templates/${encodeURIComponent(route.id)}`;
    case 'workspace':
      return `${UI_BASE}/my-templates`;
    case 'editor':
      return `${UI_BASE}/editor/${encodeURIComponent(route.id)}`;
    case 'wizard':
      return route.templateId
        ? `${UI_BASE}/batch?template=${encodeURIComponent(route.templateId)}`
        : `${UI_BASE}/batch`;
    case 'batches':
      return `${UI_BASE}/batches`;
    case 'batch':
      return `${UI_BASE}/batches/${encodeURIComponent(route.id)}`;
    case 'not-found':
      return `${UI_BASE}${route.path}`;
    default:
      return `${UI_BASE}/${route.name}`;
  }
}
