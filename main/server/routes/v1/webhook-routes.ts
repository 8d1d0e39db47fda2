import { ProblemDetails } from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import {
  CreatedWebhook,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookList,
  WebhookParams,
} from '../../../../shared/webhook-schemas.js';
import type { AsyncPort } from '../../../data/async-port.js';
import type { WebhooksRepository } from '../../../data/types/webhooks.js';
import type { RouteRegistry } from '../../route-registry.js';

export interface WebhookRouteDeps {
  /** The data's webhooks: the data folder's SQLite, or a cluster's PostgreSQL. */
  repository: AsyncPort<WebhooksRepository>;
}

/** Outgoing webhooks, in every mode: their settings and the delivery log. Admin keys only. */
export function registerWebhookRoutes(registry: RouteRegistry, deps: WebhookRouteDeps): void {
  const { repository } = deps;
  const admin = { scope: 'admin' as const };

  registry.add(
    {
      method: 'GET',
      url: '/v1/webhooks',
      summary: 'The outgoing webhooks',
      tags: ['webhooks'],
      access: admin,
      responses: { 200: { description: 'Webhooks', schema: WebhookList } },
    },
    async () => ({ items: await repository.list() }),
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/webhooks',
      summary:
        "Add a webhook: batch.finished (a batch's terminal state) and optionally batch.row_failed are POSTed to the URL, signed with the secret this answer shows once",
      tags: ['webhooks'],
      body: CreateWebhookRequest,
      access: admin,
      responses: {
        201: { description: 'The webhook and its signing secret', schema: CreatedWebhook },
        422: { description: 'validation-failed', schema: ProblemDetails },
      },
    },
    async ({ body, reply }) => {
      const { webhook, secret } = await repository.create(body);
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ ...webhook, secret });
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/webhooks/deliveries',
      summary:
        'The delivery log, newest first: status, attempts, the last status code or error, and when the next retry is due',
      tags: ['webhooks'],
      query: WebhookDeliveryQuery,
      access: admin,
      responses: { 200: { description: 'Deliveries', schema: WebhookDeliveryList } },
    },
    async ({ query }) => ({
      items: await repository.deliveries({
        limit: query.limit,
        ...(query.webhookId ? { webhookId: query.webhookId } : {}),
      }),
    }),
  );

  registry.add(
    {
      method: 'PATCH',
      url: '/v1/webhooks/:id',
      summary: 'Change a webhook (URL, events, description, enabled)',
      tags: ['webhooks'],
      params: WebhookParams,
      body: UpdateWebhookRequest,
      access: admin,
      responses: {
        200: { description: 'The webhook', schema: Webhook },
        404: { description: 'Unknown webhook', schema: ProblemDetails },
      },
    },
    async ({ params, body }) => {
      const updated = await repository.update(params.id, body);
      if (!updated) throw Errors.notFound('webhook', params.id);
      return updated;
    },
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/webhooks/:id',
      summary: 'Remove a webhook and its delivery log',
      tags: ['webhooks'],
      params: WebhookParams,
      access: admin,
      responses: {
        204: { description: 'Removed' },
        404: { description: 'Unknown webhook', schema: ProblemDetails },
      },
    },
    async ({ params, reply }) => {
      if (!(await repository.remove(params.id))) throw Errors.notFound('webhook', params.id);
      return reply.code(204).send();
    },
  );
}
