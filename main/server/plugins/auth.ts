import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import type { RateLimiter } from '../rate-limiter.js';

export interface Principal {
  /** The API key id, or `session` for the desktop UI's cookie session. */
  id: string;
  admin: boolean;
}

export interface Authenticator {
  /** Resolves a bearer secret to a principal; null for unknown or revoked keys alike. */
  byBearer(secret: string): Principal | null;
  /** Resolves the UI's session cookie value; null when absent or invalid. */
  bySession(cookieHeader: string | undefined): Principal | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * Authentication, then the per-key rate limit (its headers go on every response, 401s and 429s
 * included), then admin and subscription checks declared by each route.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: {
    authenticator: Authenticator;
    limiter: RateLimiter;
    isSubscriptionLapsed: () => boolean;
  },
): void {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? {};
    // The UI's static files are public; every API call they make needs the session.
    if (access.auth === false || request.url === '/' || request.url.startsWith('/ui/')) return;

    const principal = authenticate(request, deps.authenticator);
    const bucket = principal ? principal.id : `anonymous:${request.ip}`;
    const state = deps.limiter.hit(bucket);
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
    if (access.admin && !principal.admin) {
      throw new AppError('forbidden', 'This needs an admin key.');
    }
    if (access.requiresSubscription && deps.isSubscriptionLapsed()) {
      throw new AppError(
        'subscription-lapsed',
        'The subscription has lapsed, so rendering is paused. Renew it, then retry.',
      );
    }
  });
}

function authenticate(request: FastifyRequest, authenticator: Authenticator): Principal | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
    return match?.[1] ? authenticator.byBearer(match[1]) : null;
  }
  return authenticator.bySession(request.headers.cookie);
}
