import type { FastifyInstance } from 'fastify';

/**
 * The UI's Content-Security-Policy, sent by the core itself so a plain browser gets it too (the
 * desktop shell adds its own on top; several policies are all enforced). No inline script or
 * style at all; `frame-ancestors 'none'` stops another local page from framing the signed-in UI
 * (clickjacking).
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  // blob: is the page's own data (previews it rendered), never another origin's.
  "connect-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Whether a URL is one of the UI's pages or assets (everything else is the API). */
export function isUiUrl(url: string): boolean {
  return url === '/' || url === '/ui' || url.startsWith('/ui/') || url.startsWith('/ui?');
}

/**
 * Every response: no content sniffing, and no embedding by pages of other origins (another local
 * port is another origin, though the same site). UI pages also get the CSP and their friends.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // A route that is meant to be embedded elsewhere (preview links) says so itself.
    if (!reply.hasHeader('Cross-Origin-Resource-Policy'))
      reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (isUiUrl(request.url)) {
      reply.header('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
      // For browsers that predate frame-ancestors.
      reply.header('X-Frame-Options', 'DENY');
      // Links inside the app are signed; no other site needs to see them.
      reply.header('Referrer-Policy', 'no-referrer');
      // A page that opened the UI in a window gets no handle on it.
      reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    }
    return payload;
  });
}
