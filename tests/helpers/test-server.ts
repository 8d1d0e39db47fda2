import fs from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startCore, type CoreOptions, type RunningCore } from '../../main/app.js';
import type { CoreConfig } from '../../main/config.js';
import { lazyRenderPool } from '../../main/render/lazy-render-pool.js';

/** Tests assert on response bodies at run time, so bodies are loosely typed here on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<Json> };

/** fetch with a loosely typed json(). */
export function testFetch(url: string, init?: RequestInit): Promise<TestResponse> {
  return fetch(url, init) as Promise<TestResponse>;
}

export const TEST_ADMIN_KEY = 'rdk_test_admin_key_0123456789abcdef';

/** A request as the helpers send it, to a real server or an in-process one. */
export interface ApiRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** A raw body (set its content-type in `headers`), or a form sent as multipart/form-data. */
  body?: string | Uint8Array | FormData;
}

/** A real server (startTestServer) or an in-process one (buildInjectServer, inject-server.ts). */
export interface ApiClient {
  /** A request with the admin key unless `headers.authorization` is given. */
  api(pathname: string, init?: ApiRequest): Promise<TestResponse>;
}

/** A client that also opens whole URLs the server built (signed links), sent without a key. */
export interface LinkClient extends ApiClient {
  fetch(url: string, init?: ApiRequest): Promise<TestResponse>;
}

export interface TestServer {
  core: RunningCore;
  url: string;
  key: string;
  /** fetch with the admin key unless `headers.authorization` is given. */
  api(pathname: string, init?: RequestInit & { json?: unknown }): Promise<TestResponse>;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1:0 with a fresh data directory, as a user would run it. Its render
 * threads start at the first render (most route tests draw nothing).
 */
export async function startTestServer(
  overrides: Partial<CoreConfig> = {},
  options: CoreOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-test-'));
  const core = await startCore(
    {
      port: 0,
      dataDir,
      apiKey: TEST_ADMIN_KEY,
      openingCredits: 1000,
      rateLimit: 10_000,
      workers: 1,
      subscription: undefined,
      ...overrides,
    },
    { renderPool: lazyRenderPool, ...options },
  );
  return {
    core,
    url: core.url,
    key: overrides.apiKey ?? TEST_ADMIN_KEY,
    api(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization'))
        headers.set('authorization', `Bearer ${overrides.apiKey ?? TEST_ADMIN_KEY}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return testFetch(core.url + pathname, { ...init, headers, body });
    },
    async stop() {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP request over a plain socket, for what fetch refuses to send: a forged, missing or
 * repeated Host header, HTTP/1.0.
 */
export function rawHttp(port: number, head: string, body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('connect', () => socket.end(`${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headerBlock = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = headerBlock.split('\r\n');
      const headers: http.IncomingHttpHeaders = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}
