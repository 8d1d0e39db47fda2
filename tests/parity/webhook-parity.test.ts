import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import { createWebhooksRepository } from '../../main/store/webhooks-repository.js';
import { verifyWebhook } from '../../main/webhooks/webhook-signature.js';
import { CreateWebhookRequest } from '../../shared/webhook-schemas.js';
import type { ApiClient, Json } from '../helpers/test-server.js';
import {
  startWebhookReceiver,
  type ReceivedDelivery,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';
import {
  batchThroughApi,
  cliBatch,
  QUOTES,
  quoteRows,
  useParityModes,
  type ParityCase,
} from './parity-harness.js';

/**
 * Outgoing webhooks are one feature in three front ends: a webhook added to an embedded server,
 * to a data folder the command line runs on, or to a cluster (through its API; the queue in
 * PostgreSQL, every node sending) gets the same events for the same batch, once each, signed
 * the same way, with the same body but for ids and times.
 */

const modes = useParityModes();

const EVENTS = ['batch.finished', 'batch.row_failed'];
/** Cluster nodes poll the queue every second: time enough for a second copy to show up. */
const DUPLICATE_WINDOW_MS = 3_000;

/** Three rows, the second of which cannot render (its photo is missing): a partial batch. */
const CASE: ParityCase = {
  name: 'webhooks',
  templateId: QUOTES,
  rows: quoteRows(3, 'Hook').map((row, i) =>
    i === 1 ? { ...row, authorPhoto: '/no/such/folder/photo.png' } : row,
  ),
  source: 'json',
};

async function addThroughApi(client: ApiClient, url: string): Promise<string> {
  const res = await client.api('/v1/webhooks', { method: 'POST', json: { url, events: EVENTS } });
  const body: Json = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.secret as string;
}

/** As the app adds one, in the folder's own database, before the command runs. */
function addToFolder(dataDir: string, url: string): string {
  const store = createStore(dataDir);
  try {
    const request = CreateWebhookRequest.parse({ url, events: EVENTS });
    return createWebhooksRepository(store.db).create(request).secret;
  } finally {
    store.close();
  }
}

/** A delivery's body with what differs by run (ids, times) named instead of shown. */
function shapeOf(delivery: ReceivedDelivery, batchId: string): unknown {
  return JSON.parse(delivery.body.replaceAll(batchId, '<batch>'), (key, value: unknown) =>
    ['createdAt', 'finishedAt'].includes(key) && typeof value === 'string' ? '<time>' : value,
  );
}

function expectSigned(delivery: ReceivedDelivery, secret: string, event: string): void {
  const signature = String(delivery.headers['render-desk-signature']);
  expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(verifyWebhook(secret, delivery.body, signature)).toBe(true);
  expect(delivery.headers['render-desk-event']).toBe(event);
  expect(delivery.headers['render-desk-delivery']).toMatch(/^whd_/);
  expect(delivery.headers['content-type']).toBe('application/json');
}

describe('outgoing webhooks mean the same in every mode', () => {
  it("deliver a batch's batch.finished and failed row once each, signed, with the same bodies from the API, the command line and a cluster", async () => {
    const receivers: WebhookReceiver[] = [];
    try {
      const [embedded, cli, cluster] = await Promise.all(
        [0, 1, 2].map(() => startWebhookReceiver()),
      );
      receivers.push(embedded!, cli!, cluster!);
      const dir = modes.caseDir('webhooks-');
      const secrets = {
        embedded: await addThroughApi(modes.embedded, embedded!.url),
        cli: addToFolder(path.join(dir, 'data'), cli!.url),
        cluster: await addThroughApi(modes.cluster, cluster!.url),
      };

      const [fromEmbedded, fromCli, fromCluster] = await Promise.all([
        batchThroughApi(modes.embedded, CASE),
        cliBatch(dir, CASE, { args: ['--json'] }),
        batchThroughApi(modes.cluster, CASE),
      ]);
      expect(fromCli.code, fromCli.stderr).toBe(1);
      const batchIds = {
        embedded: fromEmbedded.id as string,
        cli: (JSON.parse(fromCli.stdout) as { batchIds: string[] }).batchIds[0]!,
        cluster: fromCluster.id as string,
      };
      expect(fromEmbedded.status).toBe('partial');
      expect(fromCluster.status).toBe('partial');

      for (const receiver of receivers) {
        await receiver.waitFor('batch.finished', 1, 30_000);
        await receiver.waitFor('batch.row_failed', 1, 30_000);
      }
      await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS));

      const shapes: Record<string, unknown[]> = {};
      for (const [mode, receiver] of [
        ['embedded', embedded!],
        ['cli', cli!],
        ['cluster', cluster!],
      ] as const) {
        // Once each: one event, one delivery, one request, whichever node queued or sent it.
        expect(receiver.received.map((r) => r.json.type).sort(), mode).toEqual(EVENTS);
        const finished = receiver.received.find((r) => r.json.type === 'batch.finished')!;
        const rowFailed = receiver.received.find((r) => r.json.type === 'batch.row_failed')!;
        expectSigned(finished, secrets[mode], 'batch.finished');
        expectSigned(rowFailed, secrets[mode], 'batch.row_failed');
        expect(finished.json.data.batch).toMatchObject({
          id: batchIds[mode],
          status: 'partial',
          total: 3,
          succeeded: 2,
          failed: 1,
        });
        expect(rowFailed.json.data).toMatchObject({ batchId: batchIds[mode], rowIndex: 1 });
        shapes[mode] = [shapeOf(finished, batchIds[mode]), shapeOf(rowFailed, batchIds[mode])];
      }
      expect(shapes.cli).toEqual(shapes.embedded);
      expect(shapes.cluster).toEqual(shapes.embedded);

      // The cluster's delivery log, read through its API, says the same as embedded mode's.
      const log: Json = await (await modes.cluster.api('/v1/webhooks/deliveries')).json();
      expect(log.items.map((d: Json) => [d.event, d.status, d.attempts]).sort()).toEqual([
        ['batch.finished', 'delivered', 1],
        ['batch.row_failed', 'delivered', 1],
      ]);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  }, 300_000);
});
