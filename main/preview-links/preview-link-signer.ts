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

/** The link's own parameters; with the `v.` values they are all a link may carry. */
const LINK_PARAMS: ReadonlySet<string> = new Set(['t', 'target', 'f', 'b', 'k', 'exp', 'sig']);

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

  /**
   * The claims of a link's query, read from the query string as the client sent it; throws 403
   * url-invalid (tampered, or carrying anything besides its signed parameters) or url-expired.
   */
  async verify(query: URLSearchParams, now = Date.now()): Promise<PreviewLinkClaims> {
    assertOnlySignedParams(query);
    const one = (name: string): string | undefined => query.get(name) ?? undefined;
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
    for (const [name, value] of query) {
      if (name.startsWith(VALUE_PREFIX)) values[name.slice(VALUE_PREFIX.length)] = value;
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

/**
 * A link is exactly what was signed. An unsigned extra parameter is refused rather than ignored:
 * ignored, it would make endless distinct URLs for one image (defeating caches, or filling a
 * CDN's), and a reader could not tell which parameters mean something. A parameter given twice
 * is refused because parsers disagree on which copy wins, so the copy checked need not be the
 * copy used.
 */
function assertOnlySignedParams(query: URLSearchParams): void {
  const seen = new Set<string>();
  for (const name of query.keys()) {
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    if (seen.has(name))
      throw new AppError(
        'url-invalid',
        `This preview link carries ${shown} more than once. Use the link exactly as POST /v1/preview-links returned it.`,
      );
    seen.add(name);
    if (!LINK_PARAMS.has(name) && !name.startsWith(VALUE_PREFIX))
      throw new AppError(
        'url-invalid',
        `This preview link carries ${shown}, which it was not signed with. Use the link exactly as POST /v1/preview-links returned it; for a fresh URL (to bypass a cache), make a new link.`,
      );
  }
}

function tampered(): AppError {
  return new AppError(
    'url-invalid',
    'This preview link was altered or its signing secret was rotated. Make a new one with POST /v1/preview-links.',
  );
}
