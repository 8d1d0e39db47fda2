import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface ImageHost {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Requests per path, and how many of them were conditional (If-None-Match). */
  hits: Map<string, number>;
  conditionalHits: Map<string, number>;
  close(): Promise<void>;
}

/** A 40 × 30 PNG of one colour (a real image sharp and the engine decode). */
export function solidPng(colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/**
 * A real HTTP server on a random 127.0.0.1 port that plays an image host: each route a path.
 * Stopped by `close()`; every open connection is closed with it.
 */
export async function startImageHost(routes: Record<string, Route>): Promise<ImageHost> {
  const hits = new Map<string, number>();
  const conditionalHits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    if (request.headers['if-none-match'])
      conditionalHits.set(pathname, (conditionalHits.get(pathname) ?? 0) + 1);
    const route = routes[pathname];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    conditionalHits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route that serves `bytes` as `type` with an ETag, answering 304 to a matching If-None-Match. */
export function imageRoute(
  bytes: Buffer,
  type = 'image/png',
  etag = '"v1"',
  cache = 'no-cache',
): Route {
  return (request, response) => {
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag, 'cache-control': cache }).end();
      return;
    }
    response
      .writeHead(200, {
        'content-type': type,
        'content-length': bytes.length,
        etag,
        'cache-control': cache,
      })
      .end(bytes);
  };
}
