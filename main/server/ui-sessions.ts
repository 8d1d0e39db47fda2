import crypto from 'node:crypto';
import type { Principal } from './plugins/auth.js';

export const SESSION_COOKIE = 'rd_session';
/** The principal id of UI sessions (UI-only endpoints check it). */
export const UI_SESSION_PRINCIPAL = 'ui-session';
const LAUNCH_TOKEN_TTL_MS = 10 * 60_000;

/**
 * The desktop UI never holds an API key (DESIGN §3): the app opens the UI with a one-time launch
 * token, which is exchanged for an HttpOnly, SameSite=Strict session cookie that lives as long
 * as this process. A token works once; a leaked link is useless after the app used it.
 */
export class UiSessions {
  private readonly launchTokens = new Map<string, number>();
  private readonly sessions = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  createLaunchToken(): string {
    const token = crypto.randomBytes(24).toString('base64url');
    this.launchTokens.set(token, this.now() + LAUNCH_TOKEN_TTL_MS);
    for (const [old, expires] of this.launchTokens)
      if (expires < this.now()) this.launchTokens.delete(old);
    return token;
  }

  /** Spends a launch token; returns a new session id, or null for an unknown, used or expired token. */
  exchange(token: string): string | null {
    const expires = this.launchTokens.get(token);
    if (expires === undefined) return null;
    this.launchTokens.delete(token);
    if (expires < this.now()) return null;
    const session = crypto.randomBytes(32).toString('base64url');
    this.sessions.add(session);
    return session;
  }

  principal(cookieHeader: string | undefined): Principal | null {
    if (!cookieHeader) return null;
    for (const part of cookieHeader.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === SESSION_COOKIE && this.sessions.has(rest.join('=')))
        return { id: UI_SESSION_PRINCIPAL, admin: true };
    }
    return null;
  }

  cookie(session: string): string {
    return `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
