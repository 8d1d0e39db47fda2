import crypto from 'node:crypto';

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'Render-Desk-Signature';

/** HMAC-SHA256 of `<t>.<body>` with the webhook's secret, as the header carries it. */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * What a receiver does (docs/integrations.md shows the same in a few lines): recompute the MAC
 * over the raw body, compare in constant time, refuse a timestamp older than `toleranceSeconds`
 * (a replayed delivery).
 */
export function verifyWebhook(
  secret: string,
  body: string,
  header: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((part) => part.split('=', 2) as [string, string]),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, body, timestamp).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
