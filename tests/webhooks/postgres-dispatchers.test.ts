import { afterEach, describe, expect, it } from 'vitest';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { postgresWebhooks } from '../../main/data/postgres/webhooks-repository.js';
import { WebhookDispatcher } from '../../main/webhooks/webhook-dispatcher.js';
import { CreateWebhookRequest } from '../../shared/webhook-schemas.js';
import { sharedPostgresDatabase } from '../helpers/services/shared-services.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DELIVERIES = 240;

describe('webhook dispatchers of several cluster nodes on one PostgreSQL', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A node's own connection pool and dispatcher, polling as often as a test can afford. */
  function node(url: string): WebhookDispatcher {
    const pool = openPostgres(url, { max: 4 });
    const dispatcher = new WebhookDispatcher({
      repository: postgresWebhooks(pool),
      pollMs: 5,
      log: (message, detail) => console.error(message, detail),
    });
    cleanups.push(() => closePostgres(pool));
    cleanups.push(() => dispatcher.close());
    return dispatcher;
  }

  it('send each of many due deliveries exactly once, racing for them', async () => {
    const { url } = await sharedPostgresDatabase({ migrated: true });
    const receiver: WebhookReceiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const setup = openPostgres(url, { max: 2 });
    cleanups.push(() => closePostgres(setup));
    const queue = postgresWebhooks(setup);
    await queue.create(CreateWebhookRequest.parse({ url: receiver.url }));
    const now = new Date();
    for (let i = 0; i < DELIVERIES; i++)
      await queue.enqueue(
        'batch.finished',
        `batch.finished:bat_${i}:x`,
        { type: 'batch.finished', i },
        now,
      );

    const [a, b] = [node(url), node(url)];
    a.start();
    b.start();
    await receiver.waitFor('batch.finished', DELIVERIES, 60_000);
    // Give a second copy, were one on its way, the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const ids = receiver.received.map((r) => String(r.headers['render-desk-delivery']));
    expect(ids).toHaveLength(DELIVERIES);
    expect(new Set(ids).size).toBe(DELIVERIES);
    const log = await queue.deliveries({ limit: 500 });
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    expect(new Set(log.map((d) => d.id))).toEqual(new Set(ids));
  }, 90_000);
});
