import crypto from 'node:crypto';
import { AppError } from '../../shared/errors.js';

/** What a preview link says: everything its image depends on, and who pays for it. */
export interface PreviewLinkClaims {
  templateId: string;
  target: string;
  format: string;
  brand: string | undefined;
  keyId: string;
  /** Seconds since the epoch. */
  exp: number;
  values: Record<string, string>;
}

/** Values ride in the query string under this prefix, apart from the link's own parameters. */
export const VALUE_PREFIX = 'v.';

/**
 * HMAC-SHA256 over a canonical form of the claims (values sorted by name), so a changed value,
 * template, target, format, brand, key or expiry breaks the signature. Rotating the secret
 * revokes every link made with the old one.
 */
export class PreviewLinkSigner {
  constructor(private readonly secret: () => Promise<string>) {}

  async query(claims: PreviewLinkClaims): Promise<string> {
    const params = new URLSearchParams();
    params.set('t', claims.templateId);
    params.set('target', claims.target);
    params.set('f', claims.format);
    if (claims.brand !== undefined) params.set('b', claims.brand);
    params.set('k', claims.keyId);
    params.set('exp', String(claims.exp));
    for (const [name, value] of sortedValues(claims.values))
      params.set(`${VALUE_PREFIX}${name}`, value);
    params.set('sig', await this.signature(claims));
    return params.toString();
  }

  /** The claims of a link's query; throws 403 url-invalid (tampered) or url-expired. */
  async verify(query: Record<string, unknown>, now = Date.now()): Promise<PreviewLinkClaims> {
    const one = (name: string): string | undefined => {
      const value = query[name];
      if (Array.isArray(value)) throw tampered();
      return typeof value === 'string' ? value : undefined;
    };
    const [t, target, f, k, exp, sig] = ['t', 'target', 'f', 'k', 'exp', 'sig'].map(one);
    if (
      !t ||
      !target ||
      !f ||
      !k ||
      !exp ||
      !sig ||
      !/^\d{1,12}$/.test(exp) ||
      !/^[0-9a-f]{64}$/.test(sig)
    )
      throw new AppError(
        'url-invalid',
        'This preview link is incomplete or unsigned. Make a new one with POST /v1/preview-links.',
      );
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(query)) {
      if (!name.startsWith(VALUE_PREFIX)) continue;
      if (typeof value !== 'string') throw tampered();
      values[name.slice(VALUE_PREFIX.length)] = value;
    }
    const claims: PreviewLinkClaims = {
      templateId: t,
      target,
      format: f,
      brand: one('b'),
      keyId: k,
      exp: Number(exp),
      values,
    };
    const expected = Buffer.from(await this.signature(claims), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given))
      throw tampered();
    if (claims.exp * 1000 < now)
      throw new AppError(
        'url-expired',
        `This preview link expired at ${new Date(claims.exp * 1000).toISOString()}. Make a new one with POST /v1/preview-links.`,
      );
    return claims;
  }

  private async signature(claims: PreviewLinkClaims): Promise<string> {
    const canonical = JSON.stringify([
      'preview-link/1',
      claims.templateId,
      claims.target,
      claims.format,
      claims.brand ?? null,
      claims.keyId,
      claims.exp,
      sortedValues(claims.values),
    ]);
    return crypto
      .createHmac('sha256', await this.secret())
      .update(canonical)
      .digest('hex');
  }
}

function sortedValues(values: Record<string, string>): [string, string][] {
  return Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function tampered(): AppError {
  return new AppError(
    'url-invalid',
    'This preview link was altered or its signing secret was rotated. Make a new one with POST /v1/preview-links.',
  );
}
