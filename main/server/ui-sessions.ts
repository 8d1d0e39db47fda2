import crypto from 'node:crypto';
import { AppError } from '../../shared/errors.js';
import type { Principal } from './plugins/auth.js';

/** The header the UI sends its session in (renderer/api/session.ts). */
export const SESSION_HEADER = 'x-render-desk-session';
/** The query parameters of a link the UI signed: session id, expiry (Unix seconds), signature. */
export const LINK_PARAMS = ['ses', 'exp', 'sig'] as const;
/** The principal id of UI sessions (UI-only endpoints check it). */
export const UI_SESSION_PRINCIPAL = 'ui-session';
const UI_PRINCIPAL: Principal = { id: UI_SESSION_PRINCIPAL, scope: 'admin' };

const LAUNCH_TOKEN_TTL_MS = 10 * 60_000;
/** The UI signs links for an hour or two; anything claiming more than a day is refused. */
const MAX_LINK_TTL_SECONDS = 24 * 3600;
/** Each opened UI link makes a session; the oldest are dropped past this many. */
const MAX_SESSIONS = 64;
/** A cluster's UI sessions outlive any one node, so they end by themselves after this. */
const SHARED_SESSION_TTL_SECONDS = 24 * 3600;
const SESSION_ID = /^[A-Za-z0-9_-]{12}$/;

/**
 * What the API nodes of a cluster share so that a UI session opened on one is honoured by all:
 * launch tokens and session secrets are derived from `key` instead of kept in one process, and a
 * launch token is spent once for the whole cluster.
 */
export interface SharedUiSessions {
  key: Buffer;
  /** Records a token (by digest) as spent; false when it was spent already, on any node. */
  spend(digest: string, expiresAt: Date): Promise<boolean>;
}

/**
 * The desktop UI never holds an API key (DESIGN §3), and no cookie either: cookies ignore ports,
 * so every other web server on 127.0.0.1 would receive one. The app opens the UI with a one-time
 * launch token; the page trades it (POST /ui/session) for a per-launch session secret that it
 * keeps in its own origin's storage and sends as a header. What the page loads without headers
 * (<img>, downloads, event streams) it signs with the same secret: a link names one path and
 * expires. Sessions live as long as this process; in a cluster (`shared`), they are derived from
 * a key every API node holds and end after a day.
 */
export class UiSessions {
  private readonly launchTokens = new Map<string, number>();
  /** Session id → secret. Ids are public (they travel in links); secrets never leave the page. */
  private readonly sessions = new Map<string, string>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedUiSessions,
  ) {}

  createLaunchToken(): string {
    if (this.shared) {
      const exp = Math.floor((this.now() + LAUNCH_TOKEN_TTL_MS) / 1000);
      const nonce = crypto.randomBytes(16).toString('base64url');
      return `${exp}.${nonce}.${this.mac(`launch\n${exp}\n${nonce}`)}`;
    }
    const token = crypto.randomBytes(24).toString('base64url');
    this.launchTokens.set(token, this.now() + LAUNCH_TOKEN_TTL_MS);
    for (const [old, expires] of this.launchTokens)
      if (expires < this.now()) this.launchTokens.delete(old);
    return token;
  }

  /** Whether a launch token could still be exchanged (opening the link does not spend it). */
  isLaunchTokenValid(token: string): boolean {
    if (this.shared) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return false;
      const [, exp, nonce, mac] = match as unknown as [string, string, string, string];
      return (
        sameText(this.mac(`launch\n${exp}\n${nonce}`), mac) && Number(exp) * 1000 >= this.now()
      );
    }
    const expires = this.launchTokens.get(token);
    return expires !== undefined && expires >= this.now();
  }

  /**
   * Spends a launch token; returns the new session (`<id>.<secret>`, what the page sends in
   * SESSION_HEADER), or null for an unknown, used or expired token.
   */
  async exchange(token: string): Promise<string | null> {
    if (this.shared) {
      if (!this.isLaunchTokenValid(token)) return null;
      const digest = crypto.createHash('sha256').update(token).digest('hex');
      const expiresAt = new Date(Number(token.split('.')[0]) * 1000);
      if (!(await this.shared.spend(digest, expiresAt))) return null;
      // The id carries its expiry (4 bytes of Unix seconds) beside 5 random bytes.
      const raw = Buffer.alloc(9);
      raw.writeUInt32BE(Math.floor(this.now() / 1000) + SHARED_SESSION_TTL_SECONDS, 0);
      crypto.randomBytes(5).copy(raw, 4);
      const id = raw.toString('base64url');
      return `${id}.${this.mac(`session\n${id}`)}`;
    }
    const valid = this.isLaunchTokenValid(token);
    this.launchTokens.delete(token);
    if (!valid) return null;
    const id = crypto.randomBytes(9).toString('base64url');
    const secret = crypto.randomBytes(32).toString('base64url');
    this.sessions.set(id, secret);
    while (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    return `${id}.${secret}`;
  }

  /** The UI principal for a valid SESSION_HEADER value, else null. */
  principal(header: string | undefined): Principal | null {
    if (!header) return null;
    const match = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{43})$/.exec(header.trim());
    if (!match) return null;
    const secret = this.secretOf(match[1] as string);
    return secret !== undefined && sameText(secret, match[2] as string) ? UI_PRINCIPAL : null;
  }

  /**
   * Checks a link the UI signed (`?…&ses=&exp=&sig=`; renderer/api/session.ts makes them):
   * HMAC-SHA256 with the session's secret over the path, the other query parameters and the
   * expiry. Throws 403 url-invalid or url-expired; a link of an ended session is invalid.
   */
  verifyLink(pathname: string, query: URLSearchParams): Principal {
    const [ses, exp, sig] = LINK_PARAMS.map((name) => query.get(name) ?? '');
    const secret = this.secretOf(ses ?? '');
    if (!secret || !/^\d{1,12}$/.test(exp ?? '') || !/^[0-9a-f]{64}$/.test(sig ?? '')) {
      throw new AppError(
        'url-invalid',
        'This link is not signed by an open session of the app. Reload the app and try again.',
      );
    }
    const rest = new URLSearchParams(query);
    for (const name of LINK_PARAMS) rest.delete(name);
    const expected = linkSignature(secret, linkTarget(pathname, rest), Number(exp));
    if (!sameText(expected, sig as string)) {
      throw new AppError('url-invalid', 'This link was altered or belongs to another resource.');
    }
    const seconds = this.now() / 1000;
    if (Number(exp) < seconds) {
      throw new AppError('url-expired', 'This link has expired. Reload the app for a fresh one.');
    }
    if (Number(exp) > seconds + MAX_LINK_TTL_SECONDS) {
      throw new AppError('url-invalid', 'This link claims to be valid for more than a day.');
    }
    return UI_PRINCIPAL;
  }

  /** A live session's secret; undefined for an unknown or ended one. */
  private secretOf(id: string): string | undefined {
    if (!this.shared) return this.sessions.get(id);
    if (!SESSION_ID.test(id)) return undefined;
    const expires = Buffer.from(id, 'base64url').readUInt32BE(0);
    return expires * 1000 >= this.now() ? this.mac(`session\n${id}`) : undefined;
  }

  private mac(text: string): string {
    return crypto
      .createHmac('sha256', (this.shared as SharedUiSessions).key)
      .update(text)
      .digest('base64url');
  }
}

/** What a link signs: its path and its other query parameters, as URLSearchParams writes them. */
export function linkTarget(pathname: string, rest: URLSearchParams): string {
  const query = rest.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function linkSignature(secret: string, target: string, exp: number): string {
  return crypto.createHmac('sha256', secret).update(`${target}\n${exp}`).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
