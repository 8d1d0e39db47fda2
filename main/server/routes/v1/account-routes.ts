import {
  Account,
  GrantCreditsRequest,
  LedgerPage,
  LedgerQuery,
  SubscriptionUpdate,
} from '../../../../shared/api-schemas.js';
import { ownerFilter } from '../../ownership.js';
import type { RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

export function registerAccountRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { data, limiter } = deps;

  const account = async (): Promise<Account> => {
    const { balance, heldCredits } = await data.ledger.account();
    const subscription = await data.subscription.get();
    return {
      balance,
      heldCredits,
      subscription: { status: subscription.status, expiresAt: subscription.expiresAt },
      rateLimit: { limit: limiter.limit, windowSeconds: Math.round(limiter.windowMs / 1000) },
    };
  };

  registry.add(
    {
      method: 'GET',
      url: '/v1/account',
      summary: 'Balance, held credits, subscription and rate limit',
      tags: ['account'],
      responses: { 200: { description: 'Account', schema: Account } },
    },
    async () => account(),
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/account/ledger',
      summary:
        'The credit ledger, newest first (a non-admin key sees only the entries of its own renders and batches)',
      tags: ['account'],
      query: LedgerQuery,
      responses: { 200: { description: 'A page of ledger entries', schema: LedgerPage } },
    },
    async ({ query, request }) => {
      const owner = ownerFilter(request.principal);
      return data.ledger.list({
        ...(query.cursor !== undefined ? { cursor: Number(query.cursor) } : {}),
        limit: query.limit,
        ...(query.kind !== undefined ? { kind: query.kind } : {}),
        ...(query.group !== undefined ? { group: query.group } : {}),
        ...(owner !== null ? { apiKeyId: owner } : {}),
      });
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/account/credits',
      summary: 'Grant credits (admin keys only)',
      tags: ['account'],
      body: GrantCreditsRequest,
      access: { scope: 'admin' },
      responses: { 201: { description: 'The account after the grant', schema: Account } },
    },
    async ({ body, request, reply }) => {
      await data.ledger.grant(body.amount, {
        note: body.note ?? 'Granted through the API',
        apiKeyId: request.principal?.id ?? null,
      });
      reply.code(201);
      return account();
    },
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/account/subscription',
      summary: 'Set the subscription state (admin keys only)',
      tags: ['account'],
      body: SubscriptionUpdate,
      access: { scope: 'admin' },
      responses: { 200: { description: 'The account', schema: Account } },
    },
    async ({ body }) => {
      await data.subscription.set({ status: body.status, expiresAt: body.expiresAt ?? null });
      return account();
    },
  );
}
