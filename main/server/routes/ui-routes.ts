import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RouteRegistry } from '../route-registry.js';
import { requestBaseUrl } from '../request-base-url.js';
import type { UiSessions } from '../ui-sessions.js';

/**
 * The UI is served by the core at /ui/ so it works in the Electron window and in any browser
 * pointed at the headless server. Static files need no session; every API call does.
 */
export function registerUiRoutes(
  app: FastifyInstance,
  registry: RouteRegistry,
  deps: { sessions: UiSessions; uiDir: string },
): void {
  registry.add(
    {
      method: 'GET',
      url: '/ui/session',
      summary: 'Exchange a one-time launch token for a UI session cookie',
      tags: ['ui'],
      query: z.object({ token: z.string().max(200) }).strict(),
      access: { auth: false },
      responses: {
        303: { description: 'To the UI, with the session cookie' },
        403: { description: 'Used or expired link' },
      },
    },
    async ({ query, reply }) => {
      const session = deps.sessions.exchange(query.token);
      if (!session) {
        return reply
          .code(403)
          .type('text/html; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .send(
            '<!doctype html><meta charset="utf-8"><title>Render Desk</title>' +
              '<body style="font:16px system-ui;margin:3rem">' +
              '<h1>This link has expired</h1><p>Each Render Desk link opens the app once. ' +
              'Use the newest link the app printed, or restart it to get a new one.</p></body>',
          );
      }
      return reply
        .header('Set-Cookie', deps.sessions.cookie(session))
        .header('Cache-Control', 'no-store')
        .redirect('/ui/', 303);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/ui-sessions',
      summary: 'A one-time link that opens the UI in a browser (admin keys)',
      tags: ['ui'],
      access: { admin: true },
      responses: { 201: { description: 'The link', schema: z.object({ url: z.string() }) } },
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

  const indexFile = path.join(deps.uiDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.get('/ui/*', { config: { access: { auth: false } } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><p>The UI is not built. Run <code>npm run build:ui</code>, then reload.</p>',
        ),
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
