import type { TestServer } from './test-server.js';

/** Spends a one-time UI link the way the desktop window does and returns the session cookie. */
export async function uiSessionCookie(server: TestServer): Promise<string> {
  const res = await fetch(server.core.uiLink(), { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie');
  if (!cookie) throw new Error(`no session cookie (status ${res.status})`);
  return cookie.split(';')[0]!;
}
