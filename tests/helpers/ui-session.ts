import type { InjectServer } from './inject-server.js';
import { testFetch, type TestResponse, type TestServer } from './test-server.js';

/** The header the UI sends its session in (main/server/ui-sessions.ts). */
export const SESSION_HEADER = 'x-render-desk-session';

/** How the POST /ui/session request is sent: over the network, or to an in-process server. */
type Send = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<TestResponse>;

/**
 * Trades a one-time UI link's token for a session the way the page does (POST /ui/session) and
 * returns the headers that authenticate as that session.
 */
export async function openUiSession(
  link: string,
  send: Send = testFetch,
): Promise<Record<string, string>> {
  const url = new URL(link);
  const res = await send(new URL('/ui/session', url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: url.searchParams.get('token') }),
  });
  if (res.status !== 201) throw new Error(`no UI session (status ${res.status})`);
  const { session } = (await res.json()) as { session: string };
  return { [SESSION_HEADER]: session };
}

/** A fresh UI session on a test server, as its desktop window would open one. */
export function uiSessionHeaders(
  server: TestServer | InjectServer,
): Promise<Record<string, string>> {
  return 'uiLink' in server
    ? openUiSession(server.uiLink(), server.fetch)
    : openUiSession(server.core.uiLink());
}
