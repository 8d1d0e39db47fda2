/**
 * The Electron security rules as pure functions, so they are tested under plain Node. The core
 * picks its port at start (and may move after a restart), so every rule takes the core's current
 * origin instead of a constant.
 */

/** `http://127.0.0.1:5317`, or null for anything that is not a parseable absolute URL. */
export function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    // data:, file:, about: and friends have the opaque origin "null": never equal to the core's.
    return parsed.origin === 'null' ? null : parsed.origin;
  } catch {
    return null;
  }
}

export function isSameOrigin(url: string | undefined | null, coreOrigin: string | null): boolean {
  if (!coreOrigin) return false;
  return originOf(url) === coreOrigin;
}

/**
 * Whether an IPC message may be served: the sending frame (`event.senderFrame.url`) must be a
 * page of the core. A status page (data:), an error page or a frame that has gone away may not.
 */
export function isTrustedSender(
  frameUrl: string | undefined | null,
  coreOrigin: string | null,
): boolean {
  return isSameOrigin(frameUrl, coreOrigin);
}

export type NavigationDecision =
  | { action: 'allow' }
  /** Not ours, but a web page the user may want: hand it to the OS browser. */
  | { action: 'open-externally'; url: string }
  | { action: 'deny' };

/** `will-navigate`, `will-redirect` and `setWindowOpenHandler`: stay on the core's origin. */
export function decideNavigation(url: string, coreOrigin: string | null): NavigationDecision {
  if (isSameOrigin(url, coreOrigin)) return { action: 'allow' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { action: 'deny' };
  }
  // Only https goes to the OS browser: http links could be other local servers, and file:,
  // javascript:, smb: … must never be opened on the page's say-so.
  if (parsed.protocol === 'https:' && !parsed.username && !parsed.password) {
    return { action: 'open-externally', url: parsed.href };
  }
  return { action: 'deny' };
}

/** The UI's Content-Security-Policy (DESIGN §3), added to every response of the core's origin. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export type ResponseHeaders = Record<string, string[]>;

/**
 * Response headers with our CSP added. A policy the core already sent is kept beside ours:
 * several CSP headers are all enforced, so adding can only tighten, never loosen.
 */
export function withContentSecurityPolicy(
  url: string,
  headers: ResponseHeaders | undefined,
  coreOrigin: string | null,
): ResponseHeaders {
  const result: ResponseHeaders = { ...(headers ?? {}) };
  if (!isSameOrigin(url, coreOrigin)) return result;
  const key = Object.keys(result).find((name) => name.toLowerCase() === 'content-security-policy');
  const existing = key ? (result[key] ?? []) : [];
  if (key) delete result[key];
  result['Content-Security-Policy'] = [...existing, UI_CONTENT_SECURITY_POLICY];
  return result;
}
