import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.js';
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

/**
 * The raw body of a binary route when its Content-Type (parameters aside) is one the route
 * takes; otherwise 415 unsupported-media-type with `refusal`, which says how to send it.
 */
export function rawBody(
  request: FastifyRequest,
  accepts: (type: string) => boolean,
  refusal: string,
): Buffer {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!accepts(type) || !Buffer.isBuffer(request.body)) {
    throw new AppError('unsupported-media-type', refusal);
  }
  return request.body;
}
