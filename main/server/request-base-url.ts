import type { FastifyRequest } from 'fastify';

/** The loopback origin the caller used (the host guard has already vetted it). */
export function requestBaseUrl(request: FastifyRequest): string {
  return `http://${request.headers.host ?? '127.0.0.1'}`;
}
