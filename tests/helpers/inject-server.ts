import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { composeCore, type ComposedCore } from '../../main/app.js';
import type { CoreConfig } from '../../main/config.js';
import { lazyRenderPool } from '../../main/render/lazy-render-pool.js';
import {
  TEST_ADMIN_KEY,
  type ApiRequest,
  type LinkClient,
  type TestResponse,
} from './test-server.js';

export interface InjectServer extends LinkClient {
  core: ComposedCore;
  /** The origin the requests name in their Host header; links the server builds start with it. */
  url: string;
  key: string;
  /** The fresh data directory the core runs on (`core.config.dataDir`). */
  dataDir: string;
  /** A request to a whole URL the server built (signed links), sent as is: no key added. */
  fetch(url: string, init?: ApiRequest): Promise<TestResponse>;
  /** A one-time link that opens the UI with a session, as the desktop window gets one. */
  uiLink(): string;
  stop(): Promise<void>;
}

const ORIGIN = 'http://127.0.0.1:5317';

/**
 * The whole core (data, render pool, services, routes) on a fresh data directory, answering
 * `inject()`ed requests in-process: no port, no socket. Tests that need a process or a real
 * connection use startTestServer instead.
 */
export async function buildInjectServer(
  overrides: Partial<CoreConfig> = {},
): Promise<InjectServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-inject-'));
  const core = await composeCore(
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
    // Render threads start at the first render: most route tests draw nothing.
    { renderPool: lazyRenderPool },
  );
  await core.server.ready();
  const key = overrides.apiKey ?? TEST_ADMIN_KEY;

  const send = async (target: URL, init: ApiRequest, withKey: boolean) => {
    const headers: Record<string, string> = { host: target.host };
    for (const [name, value] of Object.entries(init.headers ?? {}))
      headers[name.toLowerCase()] = value;
    if (withKey && headers.authorization === undefined) headers.authorization = `Bearer ${key}`;
    let payload: string | Buffer | undefined;
    if (init.body instanceof FormData) {
      // Encoded as fetch would send it, boundary and all.
      const form = new Request(target, { method: 'POST', body: init.body });
      headers['content-type'] ??= form.headers.get('content-type')!;
      payload = Buffer.from(await form.arrayBuffer());
    } else {
      payload = typeof init.body === 'string' ? init.body : init.body && Buffer.from(init.body);
    }
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(init.json);
    }
    const res = await core.server.inject({
      method: (init.method ?? 'GET') as InjectOptions['method'],
      url: target.pathname + target.search,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    return asResponse(res.statusCode, res.headers, res.rawPayload);
  };

  return {
    core,
    url: ORIGIN,
    key,
    dataDir: core.config.dataDir,
    api: (pathname, init = {}) => send(new URL(pathname, ORIGIN), init, true),
    fetch: (url, init = {}) => send(new URL(url), init, false),
    uiLink: () => `${ORIGIN}/ui/session?token=${core.sessions.createLaunchToken()}`,
    async stop() {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The injected answer as a fetch Response, so tests read it as they read a real one. */
function asResponse(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  body: Buffer,
): TestResponse {
  const list = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) list.append(name, String(one));
  }
  const empty = status === 204 || status === 304;
  return new Response(empty ? null : new Uint8Array(body), {
    status,
    headers: list,
  }) as TestResponse;
}
