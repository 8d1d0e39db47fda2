import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Reads the Idempotency-Key header: absent → undefined; repeated, empty, too long or non-ASCII → 400. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'idempotency-key') values.push(raw[i + 1] ?? '');
  }
  if (values.length === 0) return undefined;
  const invalid = (why: string) =>
    new AppError(
      'invalid-idempotency-key',
      `${why} Use one printable ASCII key of 1–255 characters, e.g. a UUID.`,
    );
  if (values.length > 1) throw invalid('The Idempotency-Key header was sent more than once.');
  const key = (values[0] ?? '').trim();
  if (key.length === 0) throw invalid('The Idempotency-Key header is empty.');
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalid(`The Idempotency-Key is ${key.length} characters long.`);
  }
  if (!/^[\x20-\x7e]+$/.test(key))
    throw invalid('The Idempotency-Key contains non-ASCII characters.');
  return key;
}

/** A hash of the request body that ignores key order and whitespace. */
export function requestFingerprint(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
