import {
  ApiKeyList,
  ApiKeyParams,
  CreateApiKeyRequest,
  CreatedApiKey,
} from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

export function registerApiKeyRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { apiKeys } = deps.data;

  registry.add(
    {
      method: 'GET',
      url: '/v1/api-keys',
      summary: 'List API keys (secrets are never shown again)',
      tags: ['keys'],
      access: { scope: 'admin' },
      responses: { 200: { description: 'Keys', schema: ApiKeyList } },
    },
    async () => apiKeys.list(),
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/api-keys',
      summary:
        'Create an API key with a scope (read, render, templates or admin; default render); the secret is in this response only',
      tags: ['keys'],
      body: CreateApiKeyRequest,
      access: { scope: 'admin' },
      responses: { 201: { description: 'The new key with its secret', schema: CreatedApiKey } },
    },
    async ({ body, reply }) => {
      const { record, secret } = await apiKeys.create(body);
      reply.code(201).header('Cache-Control', 'no-store');
      return { ...record, secret };
    },
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/api-keys/:id',
      summary: 'Revoke an API key',
      tags: ['keys'],
      params: ApiKeyParams,
      access: { scope: 'admin' },
      responses: {
        204: { description: 'Revoked' },
        404: problem('Unknown key'),
      },
    },
    async ({ params, reply }) => {
      if (!(await apiKeys.revoke(params.id))) throw Errors.notFound('API key', params.id);
      return reply.code(204).send();
    },
  );
}
