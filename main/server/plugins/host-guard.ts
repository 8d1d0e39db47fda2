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
    const isThisServer = (authority: string) =>
      (allowed.size > 0 && allowed.has(hostName(authority))) ||
      isAllowedHost(authority, request.socket.localPort);
    const named = allowed.size > 0 && allowed.has(hostName(host));
    if (!isThisServer(host)) {
      throw new AppError(
        'misdirected-request',
        `Host "${host}" is not this server. Use http://127.0.0.1:<port>/ or http://localhost:<port>/.`,
      );
    }
    // `GET http://evil.example/v1/account`: RFC 9112 §3.2.2 makes the target's authority, not
    // Host, the host the request is for, and Node routes it by its path alone. It is checked as
    // Host is, so a proxy-style request cannot name another server and be answered as ours.
    const authority = absoluteFormAuthority(request.raw.url ?? '/');
    if (authority !== undefined && !isThisServer(authority)) {
      throw new AppError(
        'misdirected-request',
        `The request is for "${authority}", which is not this server. Send the path alone (GET /v1/…) with Host: 127.0.0.1:<port>.`,
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

/**
 * The authority of an absolute-form request target (`http://host:port/path`), undefined for the
 * usual origin-form (`/path`) and for `*`. Anything else (another scheme, user info, no authority,
 * a bare `host/path`) is a 400: no client of this API sends it.
 */
export function absoluteFormAuthority(target: string): string | undefined {
  if (target.startsWith('/') || target === '*') return undefined;
  const match = /^(https?):\/\/([^/?#]*)/i.exec(target);
  const authority = match?.[2];
  if (!authority || authority.includes('@'))
    throw new AppError(
      'bad-request',
      'The request target must be a path (GET /v1/…), or an http URL of this server without a user name.',
    );
  return authority;
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
