import { describe, expect, it } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
import { CreateWebhookRequest } from '../../shared/webhook-schemas.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const LEASE = 30_000;
const finished = (id: string) => ({ type: 'batch.finished', data: { batch: { id } } });

/** A webhook as POST /v1/webhooks adds one (the schema's defaults applied). */
async function addWebhook(data: CoreData, fields: Record<string, unknown> = {}) {
  return data.webhooks.create(
    CreateWebhookRequest.parse({ url: 'http://127.0.0.1:9/hooks', ...fields }),
  );
}

describe.each(implementations.all)('outgoing webhooks and their queue on %s', (_name, open) => {
  it('adds, lists, changes and removes webhooks, showing the secret once and its prefix after', async () => {
    const data = await open();
    const first = await addWebhook(data, {
      events: ['batch.finished', 'batch.row_failed'],
      description: 'CI',
    });
    const second = await addWebhook(data, { enabled: false });
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(first.webhook).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'http://127.0.0.1:9/hooks',
      events: ['batch.finished', 'batch.row_failed'],
      description: 'CI',
      enabled: true,
      secretPrefix: first.secret.slice(0, 12),
      createdAt: expect.any(String),
    });
    const byAge = [first.webhook, second.webhook].sort((x, y) =>
      x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1,
    );
    expect(await data.webhooks.list()).toEqual(byAge);
    expect(JSON.stringify(await data.webhooks.list())).not.toContain(first.secret);

    const changed = await data.webhooks.update(second.webhook.id, {
      enabled: true,
      events: ['batch.row_failed', 'batch.row_failed'],
    });
    expect(changed).toEqual({ ...second.webhook, enabled: true, events: ['batch.row_failed'] });
    expect(await data.webhooks.get(second.webhook.id)).toEqual(changed);
    expect(await data.webhooks.update('whk_missing', { enabled: false })).toBeNull();
    expect(await data.webhooks.get('whk_missing')).toBeNull();

    expect(await data.webhooks.remove(first.webhook.id)).toBe(true);
    expect(await data.webhooks.remove(first.webhook.id)).toBe(false);
    expect(await data.webhooks.list()).toEqual([changed]);
  });

  it('queues an event once per webhook that takes it, however often it is queued', async () => {
    const data = await open();
    const all = await addWebhook(data, { events: ['batch.finished', 'batch.row_failed'] });
    await addWebhook(data, { events: ['batch.row_failed'] });
    await addWebhook(data, { enabled: false });
    const now = new Date(T0);

    expect(await data.webhooks.enqueue('batch.finished', 'k1', finished('bat_1'), now)).toBe(1);
    // The same event seen again (another node, a retried command): nothing more to send.
    expect(await data.webhooks.enqueue('batch.finished', 'k1', finished('bat_1'), now)).toBe(0);
    const both = await Promise.all([
      data.webhooks.enqueue('batch.row_failed', 'k2', { n: 2 }, now),
      data.webhooks.enqueue('batch.row_failed', 'k2', { n: 2 }, now),
    ]);
    expect(both.sort()).toEqual([0, 2]);

    const log = await data.webhooks.deliveries({ limit: 10 });
    expect(log).toHaveLength(3);
    expect(log.find((d) => d.event === 'batch.finished')).toEqual({
      id: expect.stringMatching(/^whd_/),
      webhookId: all.webhook.id,
      url: all.webhook.url,
      event: 'batch.finished',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now.toISOString(),
      lastStatusCode: null,
      lastError: null,
      createdAt: now.toISOString(),
      deliveredAt: null,
      payload: finished('bat_1'),
    });
    expect(await data.webhooks.deliveries({ webhookId: all.webhook.id, limit: 10 })).toHaveLength(
      2,
    );
    // A removed webhook takes its log with it.
    await data.webhooks.remove(all.webhook.id);
    expect(await data.webhooks.deliveries({ limit: 10 })).toHaveLength(1);
  });

  it('claims what is due for one sender, with the secret and the payload exactly as queued', async () => {
    const data = await open();
    const { webhook, secret } = await addWebhook(data);
    const payload = { type: 'batch.finished', text: 'Tết – 1.250.000 ₫', n: [1, 2.5] };
    await data.webhooks.enqueue('batch.finished', 'a', payload, new Date(T0));
    await data.webhooks.enqueue('batch.finished', 'b', payload, new Date(T0 + 1000));
    await data.webhooks.enqueue('batch.finished', 'c', payload, new Date(T0 + 60_000));

    expect(await data.webhooks.claimDue(T0 - 1, 10, T0 + LEASE)).toEqual([]);
    const claimed = await data.webhooks.claimDue(T0 + 1000, 1, T0 + LEASE);
    expect(claimed).toEqual([
      {
        id: expect.stringMatching(/^whd_/),
        webhookId: webhook.id,
        url: webhook.url,
        secret,
        event: 'batch.finished',
        payload: JSON.stringify(payload),
        attempts: 1,
      },
    ]);
    // Oldest first; a claimed delivery is nobody else's while its claim runs.
    const next = await data.webhooks.claimDue(T0 + 1000, 10, T0 + LEASE);
    expect(next.map((d) => d.id)).not.toContain(claimed[0]!.id);
    expect(next).toHaveLength(1);
    expect(await data.webhooks.claimDue(T0 + 1000, 10, T0 + LEASE)).toEqual([]);
    const log = await data.webhooks.deliveries({ limit: 10 });
    expect(log.filter((d) => d.status === 'delivering')).toHaveLength(2);
    // While claimed, no retry is planned: the log shows none.
    expect(log.filter((d) => d.status === 'delivering').map((d) => d.nextAttemptAt)).toEqual([
      null,
      null,
    ]);
  });

  it('claims at most a few of one webhook at a time, counting live claims, leaving room for the others', async () => {
    const data = await open();
    const busy = await addWebhook(data, { events: ['batch.row_failed', 'batch.finished'] });
    const other = await addWebhook(data);
    // The busy webhook's backlog is older than anything the other webhook has queued.
    for (let i = 0; i < 10; i++)
      await data.webhooks.enqueue('batch.row_failed', `row${i}`, { i }, new Date(T0 + i));
    await data.webhooks.enqueue('batch.finished', 'end', finished('bat_1'), new Date(T0 + 100));

    const first = await data.webhooks.claimDue(T0 + 1000, 8, T0 + LEASE, 3);
    const byWebhook = (claims: { webhookId: string }[], id: string) =>
      claims.filter((c) => c.webhookId === id).length;
    expect(byWebhook(first, busy.webhook.id)).toBe(3);
    expect(byWebhook(first, other.webhook.id)).toBe(1);
    // The busy webhook's three claims are live: nothing more of it until one ends.
    expect(await data.webhooks.claimDue(T0 + 1000, 8, T0 + LEASE, 3)).toEqual([]);
    const oneBusy = first.find((c) => c.webhookId === busy.webhook.id)!;
    await data.webhooks.delivered(oneBusy, 200);
    const next = await data.webhooks.claimDue(T0 + 1000, 8, T0 + LEASE, 3);
    expect(next.map((c) => c.webhookId)).toEqual([busy.webhook.id]);
    // Claims that expired (their sender died) no longer count: they are due again.
    const later = await data.webhooks.claimDue(T0 + LEASE, 8, T0 + 2 * LEASE, 3);
    expect(byWebhook(later, busy.webhook.id)).toBe(3);
    expect(byWebhook(later, other.webhook.id)).toBe(1);
  });

  it('records a delivery, and ignores the outcome of a claim it no longer holds', async () => {
    const data = await open();
    await addWebhook(data);
    await data.webhooks.enqueue('batch.finished', 'a', finished('bat_1'), new Date(T0));
    const [claim] = await data.webhooks.claimDue(T0, 1, T0 + LEASE);
    const at = new Date(T0 + 200);
    expect(await data.webhooks.delivered(claim!, 204, at)).toBe(true);
    expect(await data.webhooks.delivered(claim!, 204, at)).toBe(false);
    expect(
      await data.webhooks.attemptFailed(claim!, { statusCode: 500, error: 'x', nextAttemptAt: 1 }),
    ).toBe(false);
    expect((await data.webhooks.deliveries({ limit: 1 }))[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: at.toISOString(),
    });
    expect(await data.webhooks.claimDue(T0 + 3_600_000, 10, T0 + 3_600_000 + LEASE)).toEqual([]);
  });

  it('retries a failed attempt when its backoff is over, and gives up when told to', async () => {
    const data = await open();
    await addWebhook(data);
    await data.webhooks.enqueue('batch.finished', 'a', finished('bat_1'), new Date(T0));
    const [first] = await data.webhooks.claimDue(T0, 1, T0 + LEASE);
    const retryAt = T0 + 10_000;
    expect(
      await data.webhooks.attemptFailed(first!, {
        statusCode: 503,
        error: `answered 503 ${'x'.repeat(600)}`,
        nextAttemptAt: retryAt,
      }),
    ).toBe(true);
    const [pending] = await data.webhooks.deliveries({ limit: 1 });
    expect(pending).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 503,
      nextAttemptAt: new Date(retryAt).toISOString(),
    });
    // The log keeps the start of a long error, not a receiver's whole error page.
    expect(pending!.lastError).toHaveLength(500);

    expect(await data.webhooks.claimDue(retryAt - 1, 10, retryAt + LEASE)).toEqual([]);
    const [second] = await data.webhooks.claimDue(retryAt, 10, retryAt + LEASE);
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    await data.webhooks.attemptFailed(second!, {
      statusCode: null,
      error: 'could not connect (ECONNREFUSED)',
      nextAttemptAt: null,
    });
    expect((await data.webhooks.deliveries({ limit: 1 }))[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastStatusCode: null,
      lastError: 'could not connect (ECONNREFUSED)',
      nextAttemptAt: null,
    });
    expect(await data.webhooks.claimDue(T0 + 86_400_000, 10, T0 + 86_400_000 + LEASE)).toEqual([]);
  });

  it('takes a claim again once it expired (its sender died), and fences the first sender out', async () => {
    const data = await open();
    await addWebhook(data);
    await data.webhooks.enqueue('batch.finished', 'a', finished('bat_1'), new Date(T0));
    const [dead] = await data.webhooks.claimDue(T0, 1, T0 + LEASE);
    expect(await data.webhooks.claimDue(T0 + LEASE - 1, 1, T0 + 2 * LEASE)).toEqual([]);
    const [again] = await data.webhooks.claimDue(T0 + LEASE, 1, T0 + 2 * LEASE);
    expect(again).toMatchObject({ id: dead!.id, attempts: 2 });
    // The first sender wakes up: its outcome no longer counts.
    expect(await data.webhooks.delivered(dead!, 200)).toBe(false);
    expect(await data.webhooks.delivered(again!, 200)).toBe(true);
    expect((await data.webhooks.deliveries({ limit: 1 }))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
  });

  it('lists the log newest first and prunes finished entries past the newest ones kept', async () => {
    const data = await open();
    const { webhook } = await addWebhook(data);
    for (let i = 0; i < 5; i++)
      await data.webhooks.enqueue('batch.finished', `k${i}`, { i }, new Date(T0 + i * 1000));
    // The two oldest are finished, the third is claimed, the newest two are pending.
    const claims = await data.webhooks.claimDue(T0 + 2000, 3, T0 + LEASE);
    const byPayload = new Map(claims.map((c) => [JSON.parse(c.payload).i as number, c]));
    await data.webhooks.delivered(byPayload.get(0)!, 200);
    await data.webhooks.attemptFailed(byPayload.get(1)!, {
      statusCode: 410,
      error: 'answered 410',
      nextAttemptAt: null,
    });
    const log = await data.webhooks.deliveries({ limit: 10 });
    expect(log.map((d) => d.payload)).toEqual([4, 3, 2, 1, 0].map((i) => ({ i })));
    expect(log.map((d) => d.status)).toEqual([
      'pending',
      'pending',
      'delivering',
      'failed',
      'delivered',
    ]);
    expect(await data.webhooks.deliveries({ webhookId: webhook.id, limit: 2 })).toEqual(
      log.slice(0, 2),
    );

    expect(await data.webhooks.prune(4)).toBe(1);
    expect(await data.webhooks.prune(1)).toBe(1);
    // Pending and claimed deliveries stay, however far down the log.
    expect((await data.webhooks.deliveries({ limit: 10 })).map((d) => d.status)).toEqual([
      'pending',
      'pending',
      'delivering',
    ]);
  });
});
