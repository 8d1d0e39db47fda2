import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
