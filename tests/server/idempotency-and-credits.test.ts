import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { findTemplate } from '../helpers/catalog-probe.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let template: CatalogDetail;
let textVar: string;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  template = await findTemplate(server, (d) => d.variables.some((v) => v.type === 'text'));
  textVar = template.variables.find((v) => v.type === 'text')!.name;
});
afterAll(() => server.stop());

const account = async (s: InjectServer = server) => (await s.api('/v1/account')).json();
const sha = (bytes: ArrayBuffer) =>
  crypto.createHash('sha256').update(Buffer.from(bytes)).digest('hex');
const body = (text = 'Hello') => ({
  templateId: template.id,
  values: { ...template.sampleValues, [textVar]: text },
});

async function debitsFor(s: InjectServer, renderId: string): Promise<number> {
  const page = await (await s.api('/v1/account/ledger?limit=500&kind=debit')).json();
  return page.entries.filter((e: { renderId: string }) => e.renderId === renderId).length;
}

describe('Idempotency-Key on POST /v1/render', () => {
  it('replays the original bytes and render id without a second charge', async () => {
    const key = crypto.randomUUID();
    const before = (await account()).balance;
    const first = await server.api('/v1/render', {
      method: 'POST',
      json: body('Idempotent'),
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotency-key')).toBe(key);
    const firstHash = sha(await first.arrayBuffer());
    const renderId = first.headers.get('x-render-id')!;

    const retry = await server.api('/v1/render', {
      method: 'POST',
      json: body('Idempotent'),
      headers: { 'idempotency-key': key },
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-key')).toBe(key);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('x-render-id')).toBe(renderId);
    expect(sha(await retry.arrayBuffer())).toBe(firstHash);
    expect((await account()).balance).toBe(before - 1);
    expect(await debitsFor(server, renderId)).toBe(1);
  });

  it('charges again for a retry without the key', async () => {
    const before = (await account()).balance;
    await server.api('/v1/render', { method: 'POST', json: body('No key') });
    await server.api('/v1/render', { method: 'POST', json: body('No key') });
    expect((await account()).balance).toBe(before - 2);
  });

  it('answers 422 idempotency-key-reused for the same key with another body, charging nothing', async () => {
    const key = crypto.randomUUID();
    await server.api('/v1/render', {
      method: 'POST',
      json: body('One'),
      headers: { 'idempotency-key': key },
    });
    const before = (await account()).balance;
    const other = await server.api('/v1/render', {
      method: 'POST',
      json: body('Two'),
      headers: { 'idempotency-key': key },
    });
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('idempotency-key-reused');
    expect((await account()).balance).toBe(before);
  });

  it('scopes keys to the API key: the same key string under another API key is a new render', async () => {
    const created = await (
      await server.api('/v1/api-keys', { method: 'POST', json: { name: 'second' } })
    ).json();
    const key = crypto.randomUUID();
    const a = await server.api('/v1/render', {
      method: 'POST',
      json: body('Scoped'),
      headers: { 'idempotency-key': key },
    });
    const b = await server.api('/v1/render', {
      method: 'POST',
      json: body('Scoped'),
      headers: { 'idempotency-key': key, authorization: `Bearer ${created.secret}` },
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.headers.get('x-render-id')).not.toBe(a.headers.get('x-render-id'));
  });

  it('executes one of ten concurrent requests with one key; the others get 409 or the replay', async () => {
    const key = crypto.randomUUID();
    const before = (await account()).balance;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.api('/v1/render', {
          method: 'POST',
          json: body('Concurrent'),
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
    const conflict = responses.find((r) => r.status === 409)!;
    expect(conflict.headers.get('retry-after')).toBe('1');
    expect((await conflict.json()).code).toBe('idempotency-key-in-use');
    const renderIds = new Set(
      responses.filter((r) => r.status === 200).map((r) => r.headers.get('x-render-id')),
    );
    expect(renderIds.size).toBe(1);
    expect((await account()).balance).toBe(before - 1);
  });

  it('does not store a failed render: a retry with the same key after fixing nothing fails again uncharged', async () => {
    const key = crypto.randomUUID();
    const bad = { templateId: template.id, values: { ...template.sampleValues, nope: 1 } };
    const before = (await account()).balance;
    expect(
      (
        await server.api('/v1/render', {
          method: 'POST',
          json: bad,
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await server.api('/v1/render', {
          method: 'POST',
          json: bad,
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(422);
    expect((await account()).balance).toBe(before);
  });
});

describe('credits and subscription', () => {
  it('answers 402 insufficient-credits at zero balance and never goes negative under concurrency', async () => {
    const poor = await buildInjectServer({ openingCredits: 1, workers: 2 });
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          poor.api('/v1/render', { method: 'POST', json: body(`Race ${i}`) }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 402)).toHaveLength(19);
      const problem = await responses.find((r) => r.status === 402)!.json();
      expect(problem.code).toBe('insufficient-credits');
      expect((await account(poor)).balance).toBe(0);

      const granted = await poor.api('/v1/account/credits', {
        method: 'POST',
        json: { amount: 5, note: 'top-up' },
      });
      expect(granted.status).toBe(201);
      expect((await granted.json()).balance).toBe(5);
      expect(
        (await poor.api('/v1/render', { method: 'POST', json: body('After top-up') })).status,
      ).toBe(200);
    } finally {
      await poor.stop();
    }
  });

  it('lets only admin keys grant credits', async () => {
    const created = await (
      await server.api('/v1/api-keys', { method: 'POST', json: { name: 'plain' } })
    ).json();
    const res = await server.api('/v1/account/credits', {
      method: 'POST',
      json: { amount: 10 },
      headers: { authorization: `Bearer ${created.secret}` },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('insufficient-scope');
  });

  it('answers 403 subscription-lapsed while lapsed, distinct from 402', async () => {
    const lapsed = await server.api('/v1/account/subscription', {
      method: 'PUT',
      json: { status: 'lapsed' },
    });
    expect(lapsed.status).toBe(200);
    const before = (await account()).balance;
    const res = await server.api('/v1/render', { method: 'POST', json: body('Lapsed') });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('subscription-lapsed');
    expect((await account()).balance).toBe(before);
    await server.api('/v1/account/subscription', { method: 'PUT', json: { status: 'active' } });
    expect((await server.api('/v1/render', { method: 'POST', json: body('Active') })).status).toBe(
      200,
    );
  });

  it('reports the account and pages through the ledger newest first', async () => {
    const acc = await account();
    expect(acc).toMatchObject({
      heldCredits: 0,
      subscription: { status: 'active' },
      rateLimit: { limit: 10_000, windowSeconds: 60 },
    });
    const first = await (await server.api('/v1/account/ledger?limit=3')).json();
    expect(first.entries).toHaveLength(3);
    expect(first.nextCursor).toMatch(/^\d+$/);
    const second = await (
      await server.api(`/v1/account/ledger?limit=3&cursor=${first.nextCursor}`)
    ).json();
    expect(second.entries[0].id).toBeLessThan(first.entries[2].id);
    const grants = await (await server.api('/v1/account/ledger?kind=grant')).json();
    expect(grants.entries.every((e: { kind: string }) => e.kind === 'grant')).toBe(true);
  });
});
