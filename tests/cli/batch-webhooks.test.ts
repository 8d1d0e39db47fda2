import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEND_BEFORE_EXIT_MS } from '../../main/cli/cli-webhooks.js';
import { createStore } from '../../main/store/create-store.js';
import { createWebhooksRepository } from '../../main/store/webhooks-repository.js';
import { verifyWebhook } from '../../main/webhooks/webhook-signature.js';
import { CreateWebhookRequest, type WebhookDelivery } from '../../shared/webhook-schemas.js';
import { productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/** What a command may take after printing its result: closing its threads, not a webhook's 10 s. */
const PROMPT_EXIT_MS = 3_000;

describe('render-desk batch on a data folder with a webhook', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  let receiver: WebhookReceiver | undefined;
  let app: TestServer | undefined;
  beforeEach(() => {
    temp = tempDir('rd-cli-webhooks-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(async () => {
    await app?.core.close();
    await receiver?.close();
    app = receiver = undefined;
    temp.remove();
  });

  /** A webhook added as the app adds one (POST /v1/webhooks), in the folder's own database. */
  function addWebhook(url: string): string {
    const store = createStore(dataDir);
    try {
      const request = CreateWebhookRequest.parse({
        url,
        events: ['batch.finished', 'batch.row_failed'],
      });
      return createWebhooksRepository(store.db).create(request).secret;
    } finally {
      store.close();
    }
  }

  function queued(): WebhookDelivery[] {
    const store = createStore(dataDir);
    try {
      return createWebhooksRepository(store.db).deliveries({ limit: 100 });
    } finally {
      store.close();
    }
  }

  const batch = (rows: unknown[]) => {
    const source = path.join(temp.dir, 'rows.json');
    fs.writeFileSync(source, JSON.stringify(rows));
    return runCli([
      'batch',
      '--template',
      REFERENCE,
      '--data-dir',
      dataDir,
      '--workers',
      '1',
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'out'),
      '--json',
    ]);
  };

  it('delivers batch.finished and the failed row, signed as the app signs them, before it exits', async () => {
    receiver = await startWebhookReceiver();
    const secret = addWebhook(receiver.url);
    const result = await batch([productRow(0), { ...productRow(1), price: 'free!' }]);
    expect(result.code).toBe(1);
    const [batchId] = (JSON.parse(result.stdout) as { batchIds: string[] }).batchIds;

    // Already received when the command has exited: nothing is waited for here.
    const types = receiver.received.map((delivery) => delivery.json.type).sort();
    expect(types).toEqual(['batch.finished', 'batch.row_failed']);
    const finished = receiver.received.find((d) => d.json.type === 'batch.finished')!;
    expect(finished.json.data.batch).toMatchObject({
      id: batchId,
      status: 'partial',
      templateId: REFERENCE,
      total: 2,
      succeeded: 1,
      failed: 1,
      links: { self: `/v1/render-batches/${batchId}` },
    });
    const rowFailed = receiver.received.find((d) => d.json.type === 'batch.row_failed')!;
    expect(rowFailed.json.data).toMatchObject({ batchId, rowIndex: 1 });
    expect(String(rowFailed.json.data.error)).toMatch(/price/);

    const signature = String(finished.headers['render-desk-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(secret, finished.body, signature)).toBe(true);
    expect(finished.headers['render-desk-event']).toBe('batch.finished');
    expect(finished.headers['content-type']).toBe('application/json');

    // The folder's delivery log says so, as the app's Settings card would show it.
    const log = queued();
    expect(log.map((d) => [d.event, d.status, d.attempts]).sort()).toEqual([
      ['batch.finished', 'delivered', 1],
      ['batch.row_failed', 'delivered', 1],
    ]);
    expect(finished.headers['render-desk-delivery']).toBe(
      log.find((d) => d.event === 'batch.finished')!.id,
    );
    expect(result.stderr).not.toMatch(/webhook/);
    expect(result.exitMs - result.lastStdoutMs!).toBeLessThan(PROMPT_EXIT_MS);
  });

  it('with the receiver down, exits promptly and leaves the delivery queued for the app to send', async () => {
    // A port that refuses: the receiver is started to take one, then stopped until later.
    const stopped = await startWebhookReceiver();
    const port = Number(new URL(stopped.url).port);
    await stopped.close();
    const secret = addWebhook(stopped.url);

    const result = await batch([productRow(0)]);
    expect(result.code).toBe(0);
    const [batchId] = (JSON.parse(result.stdout) as { batchIds: string[] }).batchIds;
    // The attempt failed at once: no waiting out the 10 s the command would give an answer.
    expect(result.exitMs - result.lastStdoutMs!).toBeLessThan(PROMPT_EXIT_MS);
    expect(PROMPT_EXIT_MS).toBeLessThan(SEND_BEFORE_EXIT_MS);
    expect(result.stderr).toMatch(
      /1 webhook delivery is not sent yet \(could not connect \(ECONNREFUSED\)\); it stays queued in the data folder and the app sends it when it next runs/,
    );
    const [left] = queued();
    expect(left).toMatchObject({ event: 'batch.finished', status: 'pending', attempts: 1 });
    expect(left!.nextAttemptAt).not.toBeNull();

    // The app, started on the folder, sends it with its own dispatcher once its retry is due
    // (10 s after the failed attempt: made to have passed by moving the stored due time).
    receiver = await startWebhookReceiver(port);
    app = await startTestServer({ dataDir }, { webhookDispatcher: { pollMs: 25 } });
    app.core.store.db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ?').run(Date.now());
    const [arrived] = await receiver.waitFor('batch.finished');
    expect((arrived!.json.data.batch as { id: string }).id).toBe(batchId);
    expect(arrived!.headers['render-desk-delivery']).toBe(left!.id);
    expect(
      verifyWebhook(secret, arrived!.body, String(arrived!.headers['render-desk-signature'])),
    ).toBe(true);
    const [sent] = createWebhooksRepository(app.core.store.db).deliveries({ limit: 1 });
    expect(sent).toMatchObject({ id: left!.id, status: 'delivered', attempts: 2 });
  });
});
