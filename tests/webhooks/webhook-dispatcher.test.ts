import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asyncPort } from '../../main/data/async-port.js';
import { createStore, type Store } from '../../main/store/create-store.js';
import type { WebhooksRepository } from '../../main/data/types/webhooks.js';
import { createWebhooksRepository } from '../../main/store/webhooks-repository.js';
import { CreateWebhookRequest } from '../../shared/webhook-schemas.js';
import { WebhookDispatcher } from '../../main/webhooks/webhook-dispatcher.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

interface SilentServer {
  url: string;
  /** Requests taken so far. */
  taken: number;
  close: () => Promise<void>;
}

/** A real server that takes each request and never answers it. */
async function startSilentServer(): Promise<SilentServer> {
  const server = http.createServer(() => {
    silent.taken += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const silent: SilentServer = {
    taken: 0,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return silent;
}

const EVENT = { type: 'batch.finished', data: { batch: { id: 'bat_x' } } };

describe('the webhook dispatcher, sending before its process exits', () => {
  let dataDir: string;
  let store: Store;
  let repository: WebhooksRepository;
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-webhook-dispatcher-'));
    store = createStore(dataDir);
    repository = createWebhooksRepository(store.db);
    receiver = await startWebhookReceiver();
  });
  /** As POST /v1/webhooks adds one (batch.finished only, enabled). */
  const addWebhook = (url: string) =>
    repository.create(CreateWebhookRequest.parse({ url })).webhook;
  afterEach(async () => {
    await receiver.close();
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends what is due, and cuts off an attempt still unanswered at its deadline for a later retry', async () => {
    const silent = await startSilentServer();
    try {
      addWebhook(receiver.url);
      const hanging = addWebhook(silent.url);
      expect(repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT)).toBe(2);

      const dispatcher = new WebhookDispatcher({ repository: asyncPort(repository) });
      const started = Date.now();
      await dispatcher.sendDueThenClose(500);
      const took = Date.now() - started;

      // The silent server had the usual 10 s per attempt; the deadline ended it at 0.5 s.
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(2_000);
      expect(receiver.received.map((r) => r.json.type)).toEqual(['batch.finished']);
      const [cutOff] = repository.deliveries({ webhookId: hanging.id, limit: 1 });
      expect(cutOff).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
      expect(cutOff!.lastError).toMatch(
        /^no answer within 0\.\d s, when the process sending it exited$/,
      );
      // Retried after the usual first backoff (10 s), by whichever process sends next.
      const retryIn = Date.parse(cutOff!.nextAttemptAt!) - Date.now();
      expect(retryIn).toBeGreaterThan(8_000);
      expect(retryIn).toBeLessThanOrEqual(10_000);
    } finally {
      await silent.close();
    }
  });

  it('counts a redirect as a failed attempt, reads no answer body, and cuts off a receiver dripping its headers', async () => {
    let redirectTargetHit = false;
    const sockets = new Set<net.Socket>();
    const hostile = http.createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/elsewhere' }).end();
      } else if (request.url === '/elsewhere') {
        redirectTargetHit = true;
        response.end();
      } else {
        // 200 at once, then a body that never ends.
        response.writeHead(200);
        const drip = setInterval(() => response.write(Buffer.alloc(64 * 1024)), 5);
        response.on('close', () => clearInterval(drip));
      }
    });
    // A raw server that sends its status line a byte every 200 ms.
    const dripping = net.createServer((socket) => {
      sockets.add(socket);
      const line = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
      let at = 0;
      const timer = setInterval(() => {
        if (at < line.length && !socket.destroyed) socket.write(line.subarray(at, ++at));
      }, 200);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    await Promise.all([
      new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => dripping.listen(0, '127.0.0.1', resolve)),
    ]);
    const base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    try {
      const redirecting = addWebhook(`${base}/redirect`);
      const endless = addWebhook(`${base}/endless`);
      const slow = addWebhook(`http://127.0.0.1:${(dripping.address() as AddressInfo).port}/in`);
      expect(repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT)).toBe(3);

      const started = Date.now();
      await new WebhookDispatcher({
        repository: asyncPort(repository),
        timeoutMs: 1_000,
      }).sendDueThenClose(5_000);
      expect(Date.now() - started).toBeLessThan(3_000);

      const last = (id: string) => repository.deliveries({ webhookId: id, limit: 1 })[0];
      expect(last(redirecting.id)).toMatchObject({ status: 'pending', lastStatusCode: 302 });
      expect(last(redirecting.id)!.lastError).toMatch(/redirects are not followed/);
      expect(redirectTargetHit).toBe(false);
      expect(last(endless.id)).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
      expect(last(slow.id)).toMatchObject({ status: 'pending', lastStatusCode: null });
      expect(last(slow.id)!.lastError).toMatch(/^no answer within 1 s/);
    } finally {
      for (const socket of sockets) socket.destroy();
      hostile.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => hostile.close(resolve)),
        new Promise((resolve) => dripping.close(resolve)),
      ]);
    }
  });

  it('returns at once when nothing is due, leaving planned retries for later', async () => {
    const webhook = addWebhook(receiver.url);
    repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT);
    const [claimed] = repository.claimDue(Date.now(), 1, Date.now() + 30_000);
    repository.attemptFailed(claimed!, {
      statusCode: 500,
      error: 'answered 500',
      nextAttemptAt: Date.now() + 60_000,
    });

    const started = Date.now();
    await new WebhookDispatcher({ repository: asyncPort(repository) }).sendDueThenClose(10_000);
    expect(Date.now() - started).toBeLessThan(500);
    expect(receiver.received).toHaveLength(0);
    expect(repository.deliveries({ webhookId: webhook.id, limit: 1 })[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
    });
  });

  it('leaves alone a delivery another process is sending, until that claim expires', async () => {
    addWebhook(receiver.url);
    repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT);
    // Another process (the app) claimed it and is sending it now.
    const [inFlight] = repository.claimDue(Date.now(), 1, Date.now() + 30_000);

    const dispatcher = new WebhookDispatcher({ repository: asyncPort(repository) });
    dispatcher.start();
    await dispatcher.sendDueThenClose(1_000);
    expect(receiver.received).toHaveLength(0);
    expect(repository.deliveries({ limit: 1 })[0]).toMatchObject({
      id: inFlight!.id,
      status: 'delivering',
    });
  });

  it('sends a delivery whose sender died mid-send once its claim has expired', async () => {
    addWebhook(receiver.url);
    repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT);
    // A process claimed it for 100 ms and stopped without a word.
    const [orphan] = repository.claimDue(Date.now(), 1, Date.now() + 100);
    await new Promise((resolve) => setTimeout(resolve, 150));

    await new WebhookDispatcher({ repository: asyncPort(repository) }).sendDueThenClose(2_000);
    const [arrived] = await receiver.waitFor('batch.finished');
    expect(arrived!.headers['render-desk-delivery']).toBe(orphan!.id);
    expect(repository.deliveries({ limit: 1 })[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    // The first sender, waking up late, cannot write over the outcome.
    expect(
      repository.attemptFailed(orphan!, { statusCode: null, error: 'late', nextAttemptAt: 1 }),
    ).toBe(false);
  });
});

describe('the webhook dispatcher, with a receiver that never answers among healthy ones', () => {
  let dataDir: string;
  let store: Store;
  let repository: WebhooksRepository;
  let healthy: WebhookReceiver;
  let hung: SilentServer;
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-webhook-hung-'));
    store = createStore(dataDir);
    repository = createWebhooksRepository(store.db);
    healthy = await startWebhookReceiver();
    hung = await startSilentServer();
  });
  afterEach(async () => {
    await hung.close();
    await healthy.close();
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the healthy receiver its batch.finished at once, however many deliveries to the hung one are queued before it', async () => {
    const ATTEMPT_MS = 1_000;
    repository.create(
      CreateWebhookRequest.parse({
        url: hung.url,
        events: ['batch.row_failed', 'batch.finished'],
      }),
    );
    repository.create(CreateWebhookRequest.parse({ url: healthy.url }));
    // 24 failed rows for the hung receiver, queued before the batch finished.
    const queuedAt = Date.now() - 1_000;
    for (let row = 0; row < 24; row++)
      repository.enqueue(
        'batch.row_failed',
        `batch.row_failed:bat_x:${row}`,
        { type: 'batch.row_failed', data: { row } },
        new Date(queuedAt + row),
      );
    expect(repository.enqueue('batch.finished', 'batch.finished:bat_x:1', EVENT)).toBe(2);

    const dispatcher = new WebhookDispatcher({
      repository: asyncPort(repository),
      timeoutMs: ATTEMPT_MS,
      backoffMs: () => 60_000,
      perWebhook: 4,
      pollMs: 50,
    });
    const started = Date.now();
    dispatcher.start();
    try {
      await healthy.waitFor('batch.finished', 1, 10_000);
      // Before the hung receiver's first attempts even timed out.
      expect(Date.now() - started).toBeLessThan(ATTEMPT_MS);
      // The hung receiver holds four attempts and no more; each ends at the time limit and
      // frees its slot for the next of its backlog.
      await new Promise((resolve) => setTimeout(resolve, ATTEMPT_MS / 2 - (Date.now() - started)));
      expect(hung.taken).toBe(4);
      // The next four start as those time out (polled: a loaded machine may fire late).
      await expect.poll(() => hung.taken, { timeout: 10_000, interval: 50 }).toBe(8);
    } finally {
      await dispatcher.close();
    }
    const failed = repository
      .deliveries({ limit: 100 })
      .filter((d) => d.url === hung.url && d.lastError !== null);
    expect(failed.length).toBeGreaterThanOrEqual(4);
    expect(failed.every((d) => d.lastError === 'no answer within 1 s')).toBe(true);
  }, 20_000);
});
