import { z } from 'zod';
import { OpenApiDocument, ProblemDetails } from '../../../../shared/api-schemas.js';
import { hoistLocalDefs } from '../../hoist-schema-defs.js';
import { requiredScope, type RegisteredRoute, type RouteRegistry } from '../../route-registry.js';

const SCOPES_TEXT =
  'Every API key has a scope: `read` (catalog, templates, brands, fonts, the account, its own ' +
  'batches and outputs), `render` (also renders, uploads and batches), `templates` (also edits ' +
  'workspace templates, brands and fonts) or `admin` (everything: keys, credits, preferences, ' +
  "and every key's batches, uploads and outputs). A non-admin key sees and changes only the " +
  "batches, uploads and outputs it created: another key's answer 404, as unknown ids do. Each " +
  'operation names the least scope it needs (`x-required-scope`); a key below it gets 403 ' +
  '`insufficient-scope`.';

/**
 * /v1/openapi.json, generated from the registered routes' own validation schemas. Built and
 * serialised at the first request, then answered as it is: Fastify takes no route once it is
 * ready, so that document is whole. The UI asks for it at every start (is the free preview route
 * there?), and building its ~460 KB from the schemas cost the core 100–300 ms of CPU each time.
 */
export function registerOpenApiRoute(registry: RouteRegistry, version: string): void {
  let json: string | undefined;
  registry.add(
    {
      method: 'GET',
      url: '/v1/openapi.json',
      summary: 'This document',
      tags: ['meta'],
      responses: { 200: { description: 'OpenAPI 3.1 document', schema: OpenApiDocument } },
    },
    async ({ reply }) => {
      json ??= JSON.stringify(buildOpenApi(registry.routes, version));
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}

/** A Fastify route URL as OpenAPI writes its path: `/v1/catalog/:id` → `/v1/catalog/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, '{$1}');
}

export function buildOpenApi(routes: RegisteredRoute[], version: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          schema: property,
        });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const mediaTypes = [
        response.mediaType ??
          (Number(status) >= 400 ? 'application/problem+json' : 'application/json'),
      ].flat();
      const body = response.schema
        ? { schema: z.toJSONSchema(response.schema, { io: 'output', unrepresentable: 'any' }) }
        : {};
      responses[status] = {
        description: response.description,
        ...(response.schema || response.mediaType
          ? { content: Object.fromEntries(mediaTypes.map((type) => [type, body])) }
          : {}),
      };
    }
    const secured = route.access?.auth !== false;
    const scope = requiredScope(route.method.toString(), route.access);
    if (secured && scope !== 'read' && !responses['403']) {
      responses['403'] = {
        description: `insufficient-scope: the key's scope is below ${scope}`,
        content: {
          'application/problem+json': {
            schema: z.toJSONSchema(ProblemDetails, { io: 'output', unrepresentable: 'any' }),
          },
        },
      };
    }
    const operation = {
      summary: route.summary,
      tags: route.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }),
                },
              },
            },
          }
        : {}),
      responses,
      ...(secured
        ? { security: [{ bearer: [scope] }], 'x-required-scope': scope }
        : { security: [] }),
    };
    paths[path] = {
      ...paths[path],
      [route.method.toString().toLowerCase()]: operation,
    };
  }
  return hoistLocalDefs({
    openapi: '3.1.0',
    info: {
      title: 'Render Desk local API',
      version,
      description:
        'Template rendering on this machine. Every request needs Authorization: Bearer <API key>. ' +
        `Errors are application/problem+json with a stable \`code\`. ${SCOPES_TEXT}`,
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: SCOPES_TEXT },
      },
    },
    security: [{ bearer: [] }],
    paths,
  }) as OpenApiDocument;
}
