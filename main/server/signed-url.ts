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
