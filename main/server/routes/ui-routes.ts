import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { problem, type RouteRegistry } from '../route-registry.js';
import { requestBaseUrl } from '../request-base-url.js';
import type { UiSessions } from '../ui-sessions.js';
import { LaunchToken, UiLaunchLink, UiSession } from '../../../shared/ui-session-schemas.js';
import { AppError } from '../../../shared/errors.js';

/**
 * The UI is served by the core at /ui/ so it works in the Electron window and in any browser
 * pointed at the headless server. Static files need no session; every API call does (the page
 * holds it: main/server/ui-sessions.ts).
 */
export function registerUiRoutes(
  app: FastifyInstance,
  registry: RouteRegistry,
  deps: { sessions: UiSessions; uiDir: string },
): void {
  const indexFile = path.join(deps.uiDir, 'index.html');

  registry.add(
    {
      method: 'GET',
      url: '/ui/session',
      summary:
        'Open the UI with a one-time launch link (the page then trades the token for a session)',
      tags: ['ui'],
      query: LaunchToken,
      access: { auth: false },
      responses: {
        200: { description: 'The UI', mediaType: 'text/html' },
        403: { description: 'Used or expired link', mediaType: 'text/html' },
      },
    },
    async ({ query, reply }) => {
      // Opening the link spends nothing, so a link previewer cannot use it up; the page does.
      reply.header('Cache-Control', 'no-store');
      if (!deps.sessions.isLaunchTokenValid(query.token)) {
        return reply.code(403).type('text/html; charset=utf-8').send(EXPIRED_PAGE);
      }
      if (!fs.existsSync(indexFile)) {
        return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      }
      return reply.type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/ui/session',
      summary: 'Trade a one-time launch token for a UI session (sent as x-render-desk-session)',
      tags: ['ui'],
      body: LaunchToken,
      access: { auth: false },
      responses: {
        201: {
          description:
            'The session; it lasts as long as this process (a day in a cluster) and is never a cookie',
          schema: UiSession,
        },
        403: problem('url-expired: a used, unknown or expired token'),
      },
    },
    async ({ body, reply }) => {
      const session = await deps.sessions.exchange(body.token);
      if (!session) {
        throw new AppError(
          'url-expired',
          'This link has expired: each Render Desk link opens the app once. Use the newest link the app printed, or restart it to get a new one.',
        );
      }
      reply.code(201).header('Cache-Control', 'no-store');
      return { session };
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/ui-sessions',
      summary: 'A one-time link that opens the UI in a browser (admin keys)',
      tags: ['ui'],
      access: { scope: 'admin' },
      responses: { 201: { description: 'The link', schema: UiLaunchLink } },
    },
    async ({ request, reply }) => {
      reply.code(201).header('Cache-Control', 'no-store');
      return {
        url: `${requestBaseUrl(request)}/ui/session?token=${deps.sessions.createLaunchToken()}`,
      };
    },
  );

  app.get('/', { config: { access: { auth: false } } }, async (_request, reply) =>
    reply.redirect('/ui/', 302),
  );

  if (!fs.existsSync(indexFile)) {
    app.get('/ui/*', { config: { access: { auth: false } } }, async (_request, reply) =>
      reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE),
    );
    return;
  }
  // A prefixed scope may have its own not-found handler (the SPA fallback) beside the API's.
  void app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root: deps.uiDir,
        prefix: '/',
        index: ['index.html'],
        wildcard: false,
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          reply.header(
            'Cache-Control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
      // Client-side routes (/ui/batches/…) load the app shell.
      scope.setNotFoundHandler(async (request, reply) => {
        if (request.method === 'GET' && request.url.startsWith('/ui/')) {
          return reply
            .type('text/html; charset=utf-8')
            .header('Cache-Control', 'no-cache')
            .sendFile('index.html');
        }
        return reply.code(404).send();
      });
    },
    { prefix: '/ui' },
  );
}

const EXPIRED_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Render Desk</title>' +
  '<h1>This link has expired</h1><p>Each Render Desk link opens the app once. ' +
  'Use the newest link the app printed, or restart it to get a new one.</p>';

const NOT_BUILT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Render Desk</title>' +
  '<p>The UI is not built. Run <code>npm run build:ui</code>, then reload.</p>';
