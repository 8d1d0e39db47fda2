import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../main/webhooks/webhook-signature.js';
import { startTestServer, testFetch, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const TEMPLATE = 'tmpl_product_promo';
const GOOD = { headline: 'Serum', price: 10, photo: 'asset:product.jpg' };

/** Fast retries: what takes minutes in the app takes milliseconds here. */
const FAST = { backoffMs: () => 50, pollMs: 25, maxAttempts: 3 };

async function runBatch(server: TestServer, records: unknown[]): Promise<string> {
  const res = await server.api('/v1/render-batches', {
    method: 'POST',
    json: { templateId: TEMPLATE, sourceType: 'json-array', source: { records } },
  });
  expect(res.status).toBe(202);
  const { id } = await res.json();
  for (let i = 0; i < 400; i++) {
    const batch = await (await server.api(`/v1/render-batches/${id}`)).json();
    if (!['queued', 'running'].includes(batch.status)) return id as string;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`batch ${id} did not finish`);
}

async function deliveries(server: TestServer): Promise<Record<string, unknown>[]> {
  return (await (await server.api('/v1/webhooks/deliveries')).json()).items;
}

describe('outgoing webhooks', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({}, { webhookDispatcher: FAST });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('are added by admin keys only, the secret shown once', async () => {
    const res = await server.api('/v1/webhooks', {
      method: 'POST',
      json: { url: receiver.url, events: ['batch.finished', 'batch.row_failed'] },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    secret = created.secret;
    expect(secret).toMatch(/^whsec_/);
    const listed = (await (await server.api('/v1/webhooks')).json()).items;
    expect(listed).toHaveLength(1);
    expect(listed[0].secret).toBeUndefined();
    expect(listed[0].secretPrefix).toBe(secret.slice(0, 12));

    const key = await (
      await server.api('/v1/api-keys', { method: 'POST', json: { name: 'r', scope: 'render' } })
    ).json();
    const refused = await testFetch(`${server.url}/v1/webhooks`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(refused.status).toBe(403);
    const notUrl = await server.api('/v1/webhooks', { method: 'POST', json: { url: 'ftp://x' } });
    expect(notUrl.status).toBe(422);
    const withCredentials = await server.api('/v1/webhooks', {
      method: 'POST',
      json: { url: 'http://hook:s3cret@127.0.0.1:9/in' },
    });
    expect(withCredentials.status).toBe(422);
    expect(JSON.stringify(await withCredentials.json())).toMatch(/without a user name or password/);
  });

  it("POSTs a batch's failed row and its terminal state, signed, and logs them", async () => {
    const batchId = await runBatch(server, [GOOD, { headline: 'No price' }]);
    const [finished] = await receiver.waitFor('batch.finished');
    const [rowFailed] = await receiver.waitFor('batch.row_failed');
    const batch = finished!.json.data.batch as Record<string, unknown>;
    expect(batch).toMatchObject({ id: batchId, status: 'partial', succeeded: 1, failed: 1 });
    expect(rowFailed!.json.data).toMatchObject({ batchId, rowIndex: 1 });
    expect(String(rowFailed!.json.data.error)).toMatch(/values\.price/);

    const header = String(finished!.headers['render-desk-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(secret, finished!.body, header)).toBe(true);
    expect(verifyWebhook(secret, finished!.body.replace('partial', 'succeeded'), header)).toBe(
      false,
    );
    expect(verifyWebhook('whsec_other', finished!.body, header)).toBe(false);
    expect(finished!.headers['render-desk-event']).toBe('batch.finished');
    expect(finished!.headers['content-type']).toBe('application/json');

    const log = await deliveries(server);
    const entry = log.find((d) => d.event === 'batch.finished')!;
    expect(entry).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
      url: receiver.url,
    });
    expect(finished!.headers['render-desk-delivery']).toBe(entry.id);
  });

  it('retries with backoff until the receiver takes it, and gives up after the last attempt', async () => {
    receiver.answers.push(500, 503);
    const batchId = await runBatch(server, [GOOD]);
    const arrived = await receiver.waitFor('batch.finished', 2);
    expect((arrived[1]!.json.data.batch as { id: string }).id).toBe(batchId);
    const retried = (await deliveries(server)).find(
      (d) => (d.payload as { data: { batch: { id: string } } }).data.batch?.id === batchId,
    )!;
    expect(retried).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });

    receiver.status = 500;
    try {
      const doomed = await runBatch(server, [GOOD]);
      let entry: Record<string, unknown> | undefined;
      for (let i = 0; i < 200 && entry?.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        entry = (await deliveries(server)).find(
          (d) => (d.payload as { data: { batch?: { id: string } } }).data.batch?.id === doomed,
        );
      }
      expect(entry).toMatchObject({
        status: 'failed',
        attempts: 3,
        lastStatusCode: 500,
        lastError: 'answered 500',
        nextAttemptAt: null,
      });
    } finally {
      receiver.status = 200;
    }
  });

  it('are in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    expect(doc.paths['/v1/webhooks'].post['x-required-scope']).toBe('admin');
    expect(doc.paths['/v1/webhooks/deliveries'].get).toBeDefined();
    expect(doc.paths['/v1/webhooks/{id}'].patch).toBeDefined();
  });
});

describe('webhook payloads', () => {
  const hooked = {} as { server: TestServer; receiver: WebhookReceiver };
  beforeAll(async () => {
    hooked.receiver = await startWebhookReceiver();
    hooked.server = await startTestServer({}, { webhookDispatcher: FAST });
    const res = await hooked.server.api('/v1/webhooks', {
      method: 'POST',
      json: { url: hooked.receiver.url, events: ['batch.finished', 'batch.row_failed'] },
    });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await hooked.server?.stop();
    await hooked.receiver?.close();
  });

  it("carries a failed row's error code and field, never the row's values", async () => {
    const { receiver, server } = hooked;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-webhook-values-'));
    try {
      // A file that exists but is no image, and one that does not exist.
      const unreadable = path.join(folder, 'passport-scan-NGUYEN-VAN-A.png');
      fs.writeFileSync(unreadable, 'not an image');
      const missing = path.join(folder, 'payroll-2026-confidential', 'salary-slip.png');
      const secretPrice = 'acct-4411-0097-secret';
      const batchId = await runBatch(server, [
        { ...GOOD, photo: unreadable },
        { ...GOOD, photo: missing },
        { ...GOOD, price: secretPrice },
      ]);
      const ofBatch = async () =>
        (await receiver.waitFor('batch.row_failed', 1)).filter(
          (r) => r.json.data.batchId === batchId,
        );
      for (let i = 0; i < 200 && (await ofBatch()).length < 3; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const failed = await ofBatch();
      expect(failed).toHaveLength(3);
      for (const delivery of failed) {
        for (const secret of ['passport-scan', 'NGUYEN', 'payroll', 'salary', folder, '4411'])
          expect(delivery.body).not.toContain(secret);
      }
      const byRow = new Map(failed.map((r) => [r.json.data.rowIndex, r.json.data]));
      expect(byRow.get(0)).toMatchObject({
        errorCode: 'image-invalid',
        error: expect.stringMatching(/photo/),
      });
      expect(byRow.get(1)).toMatchObject({
        errorCode: 'image-invalid',
        fields: ['values.photo'],
        error: expect.stringMatching(/^values\.photo: the image could not be read or used\./),
      });
      expect(byRow.get(2)).toMatchObject({
        errorCode: 'validation-failed',
        fields: ['values.price'],
        error: expect.stringMatching(/^values\.price: the value does not fit the field\./),
      });
      // The batch's own rows, read with the API key, still tell the whole story.
      const renders = await (await server.api(`/v1/render-batches/${batchId}/renders`)).json();
      expect(JSON.stringify(renders)).toContain('salary-slip.png');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the webhook queue', () => {
  it('survives a restart: a retry planned before it is delivered after it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-webhooks-restart-'));
    const receiver = await startWebhookReceiver();
    receiver.status = 500;
    const first = await startTestServer(
      { dataDir },
      { webhookDispatcher: { backoffMs: () => 60 * 60_000, pollMs: 25 } },
    );
    let second: TestServer | undefined;
    try {
      await first.api('/v1/webhooks', { method: 'POST', json: { url: receiver.url } });
      const batchId = await runBatch(first, [GOOD]);
      let pending: Record<string, unknown> | undefined;
      for (let i = 0; i < 200 && !pending; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        pending = (await deliveries(first)).find((d) => d.attempts === 1);
      }
      expect(pending).toMatchObject({ status: 'pending', lastStatusCode: 500 });
      // Planned an hour ahead: nothing will happen while this process runs.
      expect(Date.parse(String(pending!.nextAttemptAt)) - Date.now()).toBeGreaterThan(3_500_000);
      await first.core.close();

      receiver.status = 200;
      // The next process finds the delivery in SQLite; the hour is made to have passed by
      // moving its stored due time (the retry itself is the new process's).
      second = await startTestServer(
        { dataDir },
        { webhookDispatcher: { backoffMs: () => 50, pollMs: 25 } },
      );
      second.core.store.db
        .prepare('UPDATE webhook_deliveries SET next_attempt_at = ?')
        .run(Date.now());
      const [arrived] = await receiver.waitFor('batch.finished');
      expect((arrived!.json.data.batch as { id: string }).id).toBe(batchId);
      const entry = (await deliveries(second)).find((d) => d.id === pending!.id);
      expect(entry).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
    } finally {
      await second?.core.close();
      await first.core.close();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
