import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Routes that read or write workspace templates or fonts whatever their body says (brands name
 * font families, which must be installed).
 */
const WORKSPACE_ROUTES = /^\/v1\/(?:templates|fonts|brand-profile|brands)(?:[/?]|$)/;

/**
 * In a cluster, workspace templates and fonts written on another API node reach this node's copy
 * within a poll interval. A request that names one (a `wtpl_` id in its path or `templateId`, or a
 * workspace, font or pack route) first brings the copy up to date, so a client that forked or
 * saved a template on one node and renders it on the next sees what it saved.
 */
export function registerWorkspaceFreshness(
  app: FastifyInstance,
  catchUp: () => Promise<void>,
): void {
  app.addHook('preHandler', async (request) => {
    if (namesWorkspace(request)) await catchUp();
  });
}

function namesWorkspace(request: FastifyRequest): boolean {
  const url = request.url;
  if (WORKSPACE_ROUTES.test(url) || url.includes('wtpl_')) return true;
  const body = request.body;
  if (typeof body !== 'object' || body === null) return false;
  const templateId = (body as { templateId?: unknown }).templateId;
  return typeof templateId === 'string' && templateId.startsWith('wtpl_');
}
