import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let limitedServer: InjectServer;
beforeAll(async () => {
  server = await buildInjectServer();
  // The admin key creates the limited keys, so it gets a little more room than they do.
  limitedServer = await buildInjectServer({ rateLimit: 5 });
});
afterAll(async () => {
  await server.stop();
  await limitedServer.stop();
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate when the key is missing', async () => {
    const res = await server.fetch(`${server.url}/v1/catalog`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = await res.json();
    expect(body).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(body.detail).toMatch(/Authorization: Bearer/);
  });

  it('answers 401 alike for unknown, malformed and revoked keys', async () => {
    const created = await server.api('/v1/api-keys', {
      method: 'POST',
      json: { name: 'to revoke' },
    });
    expect(created.status).toBe(201);
    const { id, secret } = await created.json();
    expect(
      (
        await server.fetch(`${server.url}/v1/account`, {
          headers: { authorization: `Bearer ${secret}` },
        })
      ).status,
    ).toBe(200);
    expect((await server.api(`/v1/api-keys/${id}`, { method: 'DELETE' })).status).toBe(204);

    for (const authorization of [
      `Bearer ${secret}`,
      'Bearer rdk_unknown_key_value',
      'Basic abc',
      'Bearer',
    ]) {
      const res = await server.fetch(`${server.url}/v1/account`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect((await res.json()).code).toBe('unauthorized');
    }
  });
});

describe('rate limit', () => {
  it('counts every request per key, carries the headers and answers 429 with Retry-After', async () => {
    const created = await limitedServer.api('/v1/api-keys', {
      method: 'POST',
      json: { name: 'limited' },
    });
    const { secret } = await created.json();
    const headers = { authorization: `Bearer ${secret}` };
    const remaining: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await limitedServer.fetch(`${limitedServer.url}/v1/account`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const limited = await limitedServer.fetch(`${limitedServer.url}/v1/account`, { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect((await limited.json()).code).toBe('rate-limited');

    // Another key has its own window.
    const other = await limitedServer.api('/v1/api-keys', {
      method: 'POST',
      json: { name: 'other' },
    });
    const otherSecret = (await other.json()).secret;
    const fine = await limitedServer.fetch(`${limitedServer.url}/v1/account`, {
      headers: { authorization: `Bearer ${otherSecret}` },
    });
    expect(fine.status).toBe(200);
  });
});
