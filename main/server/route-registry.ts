import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import { ProblemDetails } from '../../shared/api-schemas.js';
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

/**
 * A documented response: a JSON body of `schema`, or a body of `mediaType` (one of several when
 * the request chooses, as a render's format does), or none.
 */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  mediaType?: string | readonly string[];
}

export type ResponseSpecs = Record<number, ResponseSpec>;

/** 201 Created: the new thing as the body, and in Location where it lives from now on. */
export function created<T>(reply: FastifyReply, location: string, body: T): T {
  reply.code(201).header('Location', location);
  return body;
}

/**
 * A documented error answer: application/problem+json with the stable `code` the description
 * names (shared/errors.ts), sent by the problem-json plugin whatever the route throws.
 */
export function problem(description: string): ResponseSpec {
  return { description, schema: ProblemDetails };
}

export interface RouteSpec<
  B extends z.ZodType,
  Q extends z.ZodType,
  P extends z.ZodType,
  R extends ResponseSpecs = ResponseSpecs,
> {
  method: HTTPMethods;
  url: string;
  summary: string;
  tags: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Documented responses: status → description and optional schema or media type. */
  responses: R;
  access?: RouteAccess;
  bodyLimit?: number;
}

/**
 * What a handler may return: a body of one of its declared success schemas (Fastify sends it as
 * JSON), or the reply it sent itself (bytes, streams, 204s), or nothing once it hijacked the reply.
 */
export type HandlerResult<R extends ResponseSpecs> =
  | { [S in keyof R]: `${S & number}` extends `2${string}` ? SchemaOutput<R[S]> : never }[keyof R]
  | FastifyReply
  | void;

type SchemaOutput<T> = T extends { schema: infer Z extends z.ZodType } ? z.output<Z> : never;

export interface ParsedRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RegisteredRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

/** The routes each app declared, for the tests that hold every route to its declaration. */
const declared = new WeakMap<FastifyInstance, readonly RegisteredRoute[]>();

/** Every route declared on `app` (or a scope of it) so far, as OpenAPI documents them. */
export function declaredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return declared.get(app) ?? [];
}

export class RouteRegistry {
  /** Shared with child registries (encapsulated scopes) so OpenAPI sees every route. */
  constructor(
    private readonly app: FastifyInstance,
    readonly routes: RegisteredRoute[] = [],
  ) {
    if (!declared.has(app)) declared.set(app, routes);
  }

  add<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, R extends ResponseSpecs>(
    spec: RouteSpec<B, Q, P, R>,
    handler: (
      input: ParsedRequest<z.infer<B>, z.infer<Q>, z.infer<P>>,
    ) => Promise<HandlerResult<R>>,
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
