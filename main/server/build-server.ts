import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuth } from './plugins/auth.js';
import { registerHostGuard } from './plugins/host-guard.js';
import { registerJsonBody } from './plugins/json-body.js';
import { registerProblemJson } from './plugins/problem-json.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerWorkspaceFreshness } from './plugins/workspace-freshness.js';
import { RouteRegistry } from './route-registry.js';
import { registerAccountRoutes } from './routes/v1/account-routes.js';
import { registerApiKeyRoutes } from './routes/v1/api-key-routes.js';
import { registerBatchRoutes } from './routes/v1/batch-routes.js';
import { registerBrandRoutes } from './routes/v1/brand-routes.js';
import { registerCatalogRoutes } from './routes/v1/catalog-routes.js';
import { registerFontRoutes, registerFontUploadRoutes } from './routes/v1/font-routes.js';
import { registerOpenApiRoute } from './routes/v1/openapi-routes.js';
import { registerHealthRoute } from './routes/health-route.js';
import { registerOutputRoutes } from './routes/v1/output-routes.js';
import { registerUploadRoutes } from './routes/v1/upload-routes.js';
import { registerUiRoutes } from './routes/ui-routes.js';
import { registerSystemRoutes } from './routes/v1/system-routes.js';
import { registerPreviewLinkRoutes } from './routes/v1/preview-link-routes.js';
import { registerWebhookRoutes } from './routes/v1/webhook-routes.js';
import { registerTeamServiceRoutes } from './routes/v1/team-service-routes.js';
import { registerRenderRoutes } from './routes/v1/render-routes.js';
import { registerThumbnailRoutes } from './routes/v1/thumbnail-routes.js';
import {
  registerWorkspaceAssetRoutes,
  registerWorkspaceTemplateRoutes,
} from './routes/v1/workspace-template-routes.js';
import { registerPackExportRoute, registerPackImportRoute } from './routes/v1/pack-routes.js';
import { registerBinaryBodyRoutes } from './binary-scope.js';
import type { ServerDeps } from './server-deps.js';

/** Default body limit; routes that take images or records raise their own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export const API_VERSION = '1.0.0';

/** Builds the app without listening: main/app.ts and the tests decide where it listens. */
export function buildServer(deps: ServerDeps, options: { logger?: boolean } = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Slow-loris protection: whole request within 60 s, headers within 10 s (a connection that
    // sends nothing counts too), checked every 2 s instead of Node's 30 s.
    requestTimeout: 60_000,
    connectionTimeout: 0,
    keepAliveTimeout: 5_000,
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 2_000 },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Shutdown must not wait for long-lived event streams.
    forceCloseConnections: true,
  });

  // The API speaks JSON; a text/plain body is a mistake to report (415), not a string to validate.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  registerProblemJson(app);
  registerSecurityHeaders(app);
  registerHostGuard(app, { allowedHosts: deps.allowedHosts ?? [] });
  registerAuth(app, {
    authenticator: {
      byBearer: async (secret) => {
        const key = await deps.data.apiKeys.authenticate(secret);
        if (!key) return null;
        await deps.data.apiKeys.touch(key.id);
        return { id: key.id, scope: key.scope };
      },
      bySession: (header) => deps.sessions.principal(header),
      byLink: (pathname, query) => deps.sessions.verifyLink(pathname, query),
    },
    limiter: deps.limiter,
    subscription: deps.subscription,
  });
  if (deps.workspaceCatchUp) registerWorkspaceFreshness(app, deps.workspaceCatchUp);

  const registry = new RouteRegistry(app);
  registerCatalogRoutes(registry, deps);
  registerThumbnailRoutes(registry, deps);
  registerRenderRoutes(registry, deps);
  registerAccountRoutes(registry, deps);
  registerApiKeyRoutes(registry, deps);
  registerBrandRoutes(registry, deps);
  registerBatchRoutes(registry, deps);
  registerOutputRoutes(registry, deps);
  registerUploadRoutes(app, registry, deps);
  registerSystemRoutes(registry, deps);
  if (deps.previewLinks) registerPreviewLinkRoutes(registry, deps.previewLinks);
  if (deps.webhooks) registerWebhookRoutes(registry, deps.webhooks);
  if (deps.team) registerTeamServiceRoutes(registry, deps.team);
  registerWorkspaceTemplateRoutes(registry, deps);
  registerFontRoutes(registry, deps);
  registerPackExportRoute(registry, deps);
  registerBinaryBodyRoutes(app, registry, (binary) => {
    registerWorkspaceAssetRoutes(binary, deps);
    registerFontUploadRoutes(binary, deps);
    registerPackImportRoute(binary, deps);
  });
  registerUiRoutes(app, registry, { sessions: deps.sessions, uiDir: deps.uiDir });
  registerHealthRoute(registry, deps.data, deps.healthProblem);
  registerOpenApiRoute(registry, API_VERSION);
  return app;
}
