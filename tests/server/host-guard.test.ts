import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerHostGuard } from '../../main/server/plugins/host-guard.js';
import { registerProblemJson } from '../../main/server/plugins/problem-json.js';
import {
  rawHttp,
  startTestServer,
  TEST_ADMIN_KEY,
  type TestServer,
} from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const auth = `Authorization: Bearer ${TEST_ADMIN_KEY}`;

describe('host and origin guard', () => {
  it('answers 421 to a DNS-rebinding Host before authentication', async () => {
    const port = server.core.port;
    const res = await rawHttp(
      port,
      `GET /v1/catalog HTTP/1.1\nHost: attacker.example:${port}\nConnection: close`,
    );
    expect(res.status).toBe(421);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body).code).toBe('misdirected-request');
  });

  it('answers 421 to a loopback name with another port', async () => {
    const port = server.core.port;
    const res = await rawHttp(
      port,
      `GET /v1/catalog HTTP/1.1\nHost: 127.0.0.1:${port + 1}\n${auth}\nConnection: close`,
    );
    expect(res.status).toBe(421);
  });

  it('answers 400 to HTTP/1.0 without a Host header', async () => {
    const res = await rawHttp(server.core.port, `GET /v1/catalog HTTP/1.0\n${auth}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe('missing-host');
  });

  it('answers 400 to a repeated Host header', async () => {
    const port = server.core.port;
    const res = await rawHttp(
      port,
      `GET /v1/catalog HTTP/1.1\nHost: 127.0.0.1:${port}\nHost: evil.example\n${auth}\nConnection: close`,
    );
    expect(res.status).toBe(400);
  });

  it('accepts localhost and 127.0.0.1 with the right port', async () => {
    const port = server.core.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const res = await rawHttp(
        port,
        `GET /v1/account HTTP/1.1\nHost: ${host}\n${auth}\nConnection: close`,
      );
      expect(res.status).toBe(200);
    }
  });

  it('refuses a cross-origin browser request with 403 and no CORS header', async () => {
    const res = await server.api('/v1/account', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await res.json()).code).toBe('forbidden-origin');
  });
});

/** `GET <target>` over a loopback socket, with a Host the guard accepts. */
const absoluteForm = (port: number, target: string, host: string, headers = [auth]) =>
  rawHttp(
    port,
    [`GET ${target} HTTP/1.1`, `Host: ${host}`, ...headers, 'Connection: close'].join('\n'),
  );

describe('absolute-form request targets (GET http://host/path)', () => {
  it('answers 421 to a target naming another host, as to that Host header', async () => {
    const port = server.core.port;
    for (const target of [
      'http://evil.example/v1/account',
      `http://evil.example:${port}/v1/account`,
      'HTTP://EVIL.EXAMPLE/v1/account',
      `http://127.0.0.1:${port + 1}/v1/account`,
      `http://10.0.0.1:${port}/v1/account`,
      `https://evil.example/v1/account`,
    ]) {
      const res = await absoluteForm(port, target, `127.0.0.1:${port}`);
      expect(res.status, target).toBe(421);
      expect(JSON.parse(res.body).code, target).toBe('misdirected-request');
    }
  });

  it('answers 400 to a target with credentials or another scheme', async () => {
    const port = server.core.port;
    for (const target of [
      `http://me@127.0.0.1:${port}/v1/account`,
      `ftp://127.0.0.1:${port}/v1/account`,
    ]) {
      const res = await absoluteForm(port, target, `127.0.0.1:${port}`);
      expect(res.status, target).toBe(400);
      expect(JSON.parse(res.body).code, target).toBe('bad-request');
    }
  });

  it('serves a target naming this server, as a browser-less client may send it', async () => {
    const port = server.core.port;
    for (const target of [
      `http://127.0.0.1:${port}/v1/account`,
      `http://localhost:${port}/v1/account`,
    ]) {
      const res = await absoluteForm(port, target, `127.0.0.1:${port}`);
      expect(res.status, target).toBe(200);
    }
  });

  it('checks the target against the allowed names of a cluster API node too', async () => {
    const app = Fastify();
    registerProblemJson(app);
    registerHostGuard(app, { allowedHosts: ['render.example.com'] });
    app.get('/v1/ping', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const host = 'render.example.com';
      const foreign = await absoluteForm(port, 'http://evil.example/v1/ping', host, []);
      expect(foreign.status).toBe(421);
      const named = await absoluteForm(port, 'https://render.example.com/v1/ping', host, []);
      expect(named.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
