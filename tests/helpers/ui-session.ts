import type { TestServer } from './test-server.js';

/** The header the UI sends its session in (main/server/ui-sessions.ts). */
export const SESSION_HEADER = 'x-render-desk-session';

/**
 * Trades a one-time UI link's token for a session the way the page does (POST /ui/session) and
 * returns the headers that authenticate as that session.
 */
export async function openUiSession(link: string): Promise<Record<string, string>> {
  const url = new URL(link);
  const res = await fetch(new URL('/ui/session', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: url.searchParams.get('token') }),
  });
  if (res.status !== 201) throw new Error(`no UI session (status ${res.status})`);
  const { session } = (await res.json()) as { session: string };
  return { [SESSION_HEADER]: session };
}

/** A fresh UI session on a test server, as its desktop window would open one. */
export function uiSessionHeaders(server: TestServer): Promise<Record<string, string>> {
  return openUiSession(server.core.uiLink());
}
