import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { KeyScope } from '../../shared/key-scopes.js';
import { parseOrThrow } from './validate.js';

/**
 * Routes are declared once with their zod schemas: the same declaration validates requests and
 * feeds /v1/openapi.json, so the document cannot drift from what the server accepts.
 */

export interface RouteAccess {
  /** false for routes authorised by a signed URL instead of a key. */
  auth?: boolean;
  /** The least scope a key needs (shared/key-scopes.ts); see `requiredScope` for the default. */
  scope?: KeyScope;
  /**
   * GET routes the UI loads without headers (<img>, downloads, event streams) also accept a link
   * the UI session signed (main/server/ui-sessions.ts).
   */
  uiLink?: boolean;
  /** Rendering routes answer 403 subscription-lapsed when the subscription has lapsed. */
  requiresSubscription?: boolean;
}

/** Reading needs `read` and changing needs `render`, unless the route asks for more. */
export function requiredScope(method: string, access: RouteAccess | undefined): KeyScope {
  if (access?.scope) return access.scope;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'render';
}

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: HTTPMethods;
  url: string;
  summary: string;
  tags: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Documented responses: status → description and optional schema or media type. */
  responses: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  access?: RouteAccess;
  bodyLimit?: number;
}

export interface ParsedRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RegisteredRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

export class RouteRegistry {
  /** Shared with child registries (encapsulated scopes) so OpenAPI sees every route. */
  constructor(
    private readonly app: FastifyInstance,
    readonly routes: RegisteredRoute[] = [],
  ) {}

  add<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
    spec: RouteSpec<B, Q, P>,
    handler: (input: ParsedRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<unknown>,
  ): void {
    this.routes.push(spec as unknown as RegisteredRoute);
    this.app.route({
      method: spec.method,
      url: spec.url,
      ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
      config: { access: spec.access ?? {} },
      handler: async (request, reply) => {
        const params = spec.params ? parseOrThrow(spec.params, request.params, 'params') : {};
        const query = spec.query ? parseOrThrow(spec.query, request.query ?? {}, 'query') : {};
        const body = spec.body ? parseOrThrow(spec.body, request.body ?? {}) : undefined;
        return handler({
          body: body as z.infer<B>,
          query: query as z.infer<Q>,
          params: params as z.infer<P>,
          request,
          reply,
        });
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
