import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };

/** A client of one Render Desk server: every /v1 path, its parameters, bodies and answers typed. */
export type RenderDeskClient = Client<paths>;

export interface RenderDeskClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The server's URL, e.g. `http://127.0.0.1:5317` (the headless server prints it). */
  baseUrl: string;
  /** An API key (`rdk_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
}

/**
 * A typed client over openapi-fetch:
 *
 * ```ts
 * const rd = createRenderDeskClient({ baseUrl: 'http://127.0.0.1:5317', apiKey: 'rdk_…' });
 * const { data, error } = await rd.POST('/v1/render', {
 *   body: { templateId: 'tmpl_product_promo', values: { headline: 'Hi' } },
 *   parseAs: 'arrayBuffer',
 * });
 * ```
 *
 * Answers are `{ data }` or `{ error }` (the problem+json body, with its `code`), never thrown.
 */
export function createRenderDeskClient(options: RenderDeskClientOptions): RenderDeskClient {
  const { apiKey, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: {
      ...(headers as Record<string, string> | undefined),
      authorization: `Bearer ${apiKey}`,
    },
  });
}
