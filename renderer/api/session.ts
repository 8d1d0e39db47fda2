/**
 * The page's session with the core (main/server/ui-sessions.ts). It is never a cookie: cookies
 * ignore ports, so every other web server on 127.0.0.1 would receive it. The launch link
 * (/ui/session?token=…) is traded for a session that lives in this page's memory and in its
 * origin's sessionStorage (so a reload keeps it; another port is another origin and cannot read
 * it), and goes out as a header on every API call. A tab opened later (a deep link, a middle
 * click) asks the app's open tabs for it over a BroadcastChannel, which is per origin too.
 */

import { UI_SESSION_STORAGE_KEY } from '../../shared/ui-session-key';

const SESSION_HEADER = 'x-render-desk-session';
const LAUNCH_PATH = '/ui/session';
const CHANNEL_NAME = 'render-desk.session';
/** How long a new tab waits for an open tab to share its session. */
const ASK_TIMEOUT_MS = 400;
/** Links are signed per hour and valid for one to two hours, so the same link is reused. */
const LINK_PERIOD_SECONDS = 3600;
const MAX_CACHED_LINKS = 5000;

type ChannelMessage = { type: 'ask' } | { type: 'session'; session: string };

let session: string | null = null;
let linkKey: Promise<CryptoKey> | null = null;
const links = new Map<string, { url: string; exp: number }>();

/** Headers that authenticate a request as this page's session. */
export function sessionHeaders(): Record<string, string> {
  return session ? { [SESSION_HEADER]: session } : {};
}

/**
 * Runs once before the app renders: trades a launch token if the page was opened with one, else
 * takes the session this tab had before a reload, else asks the app's other tabs.
 */
export async function startSession(): Promise<void> {
  if (location.pathname === LAUNCH_PATH) {
    const token = new URLSearchParams(location.search).get('token');
    // The token is spent either way: keep it out of the address bar and the history.
    history.replaceState(null, '', '/ui/');
    if (token) await exchange(token);
  }
  session ??= readStored();
  session ??= await askOtherTabs();
  if (session) remember(session);
  shareWithOtherTabs();
}

async function exchange(token: string): Promise<void> {
  try {
    const response = await fetch(LAUNCH_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
    });
    if (!response.ok) return;
    const body = (await response.json()) as { session?: unknown };
    if (typeof body.session === 'string') remember(body.session);
  } catch {
    // The core is not answering: the app shows it is offline and retries its own calls.
  }
}

function remember(value: string): void {
  if (value !== session) {
    session = value;
    linkKey = null;
    links.clear();
  }
  try {
    sessionStorage.setItem(UI_SESSION_STORAGE_KEY, value);
  } catch {
    // Storage may be off; the session still lasts until this page is reloaded.
  }
}

function readStored(): string | null {
  try {
    return sessionStorage.getItem(UI_SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
}

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL_NAME) : null;
}

function askOtherTabs(): Promise<string | null> {
  const ask = channel();
  if (!ask) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      clearTimeout(timer);
      ask.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), ASK_TIMEOUT_MS);
    ask.onmessage = (event: MessageEvent<ChannelMessage>) => {
      if (event.data?.type === 'session' && typeof event.data.session === 'string') {
        done(event.data.session);
      }
    };
    ask.postMessage({ type: 'ask' } satisfies ChannelMessage);
  });
}

function shareWithOtherTabs(): void {
  const answer = channel();
  if (!answer) return;
  answer.onmessage = (event: MessageEvent<ChannelMessage>) => {
    if (event.data?.type === 'ask' && session) {
      answer.postMessage({ type: 'session', session } satisfies ChannelMessage);
    }
  };
}

/**
 * A link to `path` (same origin) that works without headers, for <img>, downloads and event
 * streams: `ses`, `exp` and `sig` added, the signature an HMAC-SHA256 with the session secret
 * over the path, its other query parameters and the expiry. Without a session, the path itself.
 */
export async function signedLink(path: string): Promise<string> {
  const cached = cachedLink(path);
  if (cached) return cached;
  const current = session;
  const [id, secret] = current?.split('.') ?? [];
  if (!current || !id || !secret) return path;
  const url = new URL(path, location.origin);
  const params = new URLSearchParams(url.search);
  const query = params.toString();
  const target = query ? `${url.pathname}?${query}` : url.pathname;
  const exp = (Math.floor(Date.now() / 1000 / LINK_PERIOD_SECONDS) + 2) * LINK_PERIOD_SECONDS;
  linkKey ??= crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = await crypto.subtle.sign(
    'HMAC',
    await linkKey,
    new TextEncoder().encode(`${target}\n${exp}`),
  );
  params.set('ses', id);
  params.set('exp', String(exp));
  params.set('sig', toHex(signature));
  const link = `${url.pathname}?${params.toString()}`;
  // A session that changed meanwhile signed nothing here.
  if (session === current) {
    // A results table signs a link per row: keep the newest few thousand.
    if (links.size >= MAX_CACHED_LINKS) links.delete(links.keys().next().value as string);
    links.set(path, { url: link, exp });
  }
  return link;
}

/** A link signed earlier that is still good for at least half an hour, else undefined. */
export function cachedLink(path: string): string | undefined {
  const hit = links.get(path);
  if (hit && hit.exp - Date.now() / 1000 > LINK_PERIOD_SECONDS / 2) return hit.url;
  return undefined;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
