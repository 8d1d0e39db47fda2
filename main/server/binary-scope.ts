import type { FastifyInstance } from 'fastify';
import { RouteRegistry } from './route-registry.js';

/**
 * Routes that take a file as the raw request body (template assets, fonts, template packs): in
 * their own scope, every non-JSON body arrives as one Buffer, bounded by the route's bodyLimit.
 */
export function registerBinaryBodyRoutes(
  app: FastifyInstance,
  parent: RouteRegistry,
  register: (registry: RouteRegistry) => void,
): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    register(new RouteRegistry(scope, parent.routes));
  });
}
