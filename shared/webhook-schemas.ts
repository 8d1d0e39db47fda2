import { z } from 'zod';

/**
 * Events a webhook may receive: a batch reaching a terminal state (succeeded, partial, failed,
 * degraded, cancelled), and optionally each row that failed.
 */
export const WebhookEvent = z.enum(['batch.finished', 'batch.row_failed']);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** An http(s) address with a user name or password before its host. */
export const URL_WITH_CREDENTIALS = /^https?:\/\/[^/?#]*@/i;

/** A webhook's address: the API's rule, which the app's form checks too. */
export const WebhookUrl = z
  .string()
  .max(2000)
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'an http:// or https:// URL')
  // Fetch refuses URLs with credentials at every attempt: refuse them once, here. Receivers
  // check the signature instead.
  .refine(
    (url) => !URL_WITH_CREDENTIALS.test(url),
    'a URL without a user name or password (check the Render-Desk-Signature header instead)',
  );

export const CreateWebhookRequest = z
  .object({
    url: WebhookUrl,
    events: z.array(WebhookEvent).min(1).max(2).default(['batch.finished']),
    description: z.string().max(200).default(''),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = z
  .object({
    url: WebhookUrl.optional(),
    events: z.array(WebhookEvent).min(1).max(2).optional(),
    description: z.string().max(200).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  description: z.string(),
  enabled: z.boolean(),
  /** The signing secret's first characters, to recognise it; the whole one is shown once. */
  secretPrefix: z.string(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z.string().describe('The signing secret (whsec_…), shown only in this answer.'),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookList = z.object({ items: z.array(Webhook) });

export const WebhookDelivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  url: z.string(),
  event: WebhookEvent,
  status: z.enum(['pending', 'delivering', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** When the next attempt is due (pending deliveries), else null. */
  nextAttemptAt: z.string().nullable(),
  /** The HTTP status of the last attempt, or null when it got no answer. */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  payload: z.unknown(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ items: z.array(WebhookDelivery) });

export const WebhookDeliveryQuery = z
  .object({
    webhookId: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();

export const WebhookParams = z.object({ id: z.string().max(100) }).strict();
