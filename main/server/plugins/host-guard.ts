import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * DNS-rebinding guard: a page on attacker.example can make a browser talk to 127.0.0.1 under the
 * attacker's host name, so only loopback names with our own port are answered (421 otherwise),
 * checked before authentication. Node accepts a missing or repeated Host header; we do not.
 */
export function registerHostGuard(
  app: FastifyInstance,
  options: { allowedHosts?: readonly string[] } = {},
): void {
  const allowed = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase()));
  app.addHook('onRequest', async (request) => {
    const raw = request.raw.rawHeaders;
    let hostCount = 0;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]?.toLowerCase() === 'host') hostCount += 1;
    }
    const host = request.headers.host;
    if (hostCount !== 1 || !host) {
      throw new AppError(
        'missing-host',
        'Send exactly one Host header, e.g. Host: 127.0.0.1:5317.',
      );
    }
    // A cluster's API node also answers to the names its operator listed (behind a proxy or a
    // load balancer, on whatever port they expose).
    const named = allowed.size > 0 && allowed.has(hostName(host));
    if (!named && !isAllowedHost(host, request.socket.localPort)) {
      throw new AppError(
        'misdirected-request',
        `Host "${host}" is not this server. Use http://127.0.0.1:<port>/ or http://localhost:<port>/.`,
      );
    }
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      origin !== `http://${host}` &&
      !(named && origin === `https://${host}`)
    ) {
      throw new AppError(
        'forbidden-origin',
        'Cross-origin browser requests are refused; call the API from a script or the app itself.',
      );
    }
  });
}

export function isAllowedHost(host: string, localPort: number | undefined): boolean {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!match) return false;
  const [, name, port] = match;
  if (!name || !LOOPBACK_NAMES.includes(name)) return false;
  // Injected test requests have no socket port; a real socket must match exactly.
  if (localPort === undefined) return true;
  return port !== undefined && Number(port) === localPort;
}

/** The name part of a Host header (`render.example.com:8443` → `render.example.com`). */
function hostName(host: string): string {
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  return match?.[1] ?? '';
}
