import crypto from 'node:crypto';
import { AppError } from '../../shared/errors.js';

/**
 * Short-lived links for resources fetched without a bearer header (thumbnails in <img>, bundle
 * downloads): HMAC-SHA256 over the path and the expiry, compared in constant time. A signature
 * for one path is useless on another, and a changed `exp` breaks it.
 */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns `path?exp=…&sig=…` valid for `ttlSeconds`. */
  sign(pathname: string, ttlSeconds: number): { url: string; expiresAt: Date } {
    const exp = Math.floor(this.now() / 1000) + ttlSeconds;
    const sig = this.signature(pathname, exp);
    return { url: `${pathname}?exp=${exp}&sig=${sig}`, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Checks a request target as sent (`/path?exp=…&sig=…`): exactly `exp` and `sig`, once each.
   * A parameter the link was not signed with, or one given twice, is 403 url-invalid as an altered
   * link is (a parsed query would make a repeated one a list, refused as 422 before this check).
   */
  verifyUrl(target: string): void {
    const at = target.indexOf('?');
    const pathname = at < 0 ? target : target.slice(0, at);
    const params = new URLSearchParams(at < 0 ? '' : target.slice(at + 1));
    const seen = new Set<string>();
    for (const name of params.keys()) {
      if ((name !== 'exp' && name !== 'sig') || seen.has(name)) {
        throw new AppError(
          'url-invalid',
          `This link carries "${name.slice(0, 40)}" ${seen.has(name) ? 'twice' : 'which it was not signed with'}. Use the link exactly as the API gave it.`,
        );
      }
      seen.add(name);
    }
    this.verify(pathname, params.get('exp') ?? undefined, params.get('sig') ?? undefined);
  }

  /** Throws 403 url-invalid or url-expired. */
  verify(pathname: string, exp: string | undefined, sig: string | undefined): void {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) {
      throw new AppError('url-invalid', 'This link is not signed. Ask the API for a fresh link.');
    }
    const expected = Buffer.from(this.signature(pathname, Number(exp)), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
      throw new AppError('url-invalid', 'This link was altered or belongs to another resource.');
    }
    if (Number(exp) * 1000 < this.now()) {
      throw new AppError('url-expired', 'This link has expired. Ask the API for a fresh link.');
    }
  }

  private signature(pathname: string, exp: number): string {
    return crypto.createHmac('sha256', this.secret).update(`${pathname}\n${exp}`).digest('hex');
  }
}
