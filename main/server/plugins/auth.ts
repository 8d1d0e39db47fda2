import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import { scopeAllows, type KeyScope } from '../../../shared/key-scopes.js';
import type { RateLimitState } from '../rate-limiter.js';

/** Counts requests per key: in memory (embedded) or in Redis (across a cluster's API nodes). */
export interface RequestLimiter {
  readonly limit: number;
  readonly windowMs: number;
  hit(id: string): RateLimitState | Promise<RateLimitState>;
}
import { requiredScope, type RouteAccess } from '../route-registry.js';
import { LINK_PARAMS, SESSION_HEADER } from '../ui-sessions.js';
import type { SubscriptionGate } from '../../data/subscription-gate.js';

export interface Principal {
  /** The API key id, or `ui-session` for the desktop UI's session. */
  id: string;
  scope: KeyScope;
}

export interface Authenticator {
  /** Resolves a bearer secret to a principal; null for unknown or revoked keys alike. */
  byBearer(secret: string): Promise<Principal | null>;
  /** Resolves the UI's session header; null when absent or invalid. */
  bySession(header: string | undefined): Principal | null;
  /** Checks a link the UI session signed; throws 403 url-invalid or url-expired. */
  byLink(pathname: string, query: URLSearchParams): Principal;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * Authentication (an API key, the UI's session header, or a link the UI signed), then the per-key
 * rate limit (its headers go on every response, 401s and 429s included), then the scope and
 * subscription checks each route declares.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: {
    authenticator: Authenticator;
    limiter: RequestLimiter;
    subscription: SubscriptionGate;
  },
): void {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? {};
    // The UI's static files are public; every API call they make needs the session.
    if (access.auth === false || request.url === '/' || request.url.startsWith('/ui/')) return;

    const { principal, byLink } = await authenticate(request, deps.authenticator, access);
    // Images the UI loads through signed links (thumbnails, outputs) count apart from its API
    // calls: scrolling through a 10,000-row batch's thumbnails must not leave the screen's own
    // requests (its manifest, its status) refused.
    const bucket = principal
      ? byLink
        ? `${principal.id}:links`
        : principal.id
      : `anonymous:${request.ip}`;
    const state = await deps.limiter.hit(bucket);
    reply.header('x-ratelimit-limit', String(state.limit));
    reply.header('x-ratelimit-remaining', String(state.remaining));
    reply.header('x-ratelimit-reset', String(state.resetSeconds));

    if (!principal) {
      throw new AppError(
        'unauthorized',
        'Send "Authorization: Bearer <API key>". Create keys in the app under Local API.',
      );
    }
    if (!state.allowed) {
      throw new AppError(
        'rate-limited',
        `This key made more than ${state.limit} requests in the current window; retry in ${state.resetSeconds} s.`,
        { headers: { 'Retry-After': String(state.resetSeconds) } },
      );
    }
    request.principal = principal;
    const needs = requiredScope(request.method, access);
    if (!scopeAllows(principal.scope, needs)) {
      throw new AppError(
        'insufficient-scope',
        `This needs a key with the "${needs}" scope or above; this key's scope is "${principal.scope}". ` +
          'An admin can create such a key in the app under Local API (POST /v1/api-keys).',
        { extensions: { requiredScope: needs, scope: principal.scope } },
      );
    }
    if (access.requiresSubscription) await deps.subscription.assertActive();
  });
}

async function authenticate(
  request: FastifyRequest,
  authenticator: Authenticator,
  access: RouteAccess,
): Promise<{ principal: Principal | null; byLink: boolean }> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
    return { principal: match?.[1] ? await authenticator.byBearer(match[1]) : null, byLink: false };
  }
  const session = request.headers[SESSION_HEADER];
  if (session !== undefined) {
    const principal = authenticator.bySession(Array.isArray(session) ? undefined : session);
    return { principal, byLink: false };
  }
  // Cookies are never read: every server on 127.0.0.1 receives them, whatever its port.
  if (access.uiLink && request.method === 'GET') {
    const [pathname = '', search = ''] = request.url.split('?', 2);
    const query = new URLSearchParams(search);
    if (!query.has('sig')) return { principal: null, byLink: false };
    const principal = authenticator.byLink(pathname, query);
    // The route validates its own parameters; the link's are spent.
    const parsed = request.query as Record<string, unknown>;
    for (const name of LINK_PARAMS) delete parsed[name];
    return { principal, byLink: true };
  }
  return { principal: null, byLink: false };
}
