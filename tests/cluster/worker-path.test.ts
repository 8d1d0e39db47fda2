import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../main/catalog/load-catalog.js';
import { templateFields } from '../../main/batch/template-fields.js';
import { ChunkQueue } from '../../main/cluster/chunk-queue.js';
import { ClusterScheduler } from '../../main/cluster/cluster-scheduler.js';
import { startClusterWorker } from '../../main/cluster/cluster-worker.js';
import { Coordination } from '../../main/cluster/coordination.js';
import { Leader } from '../../main/cluster/leader.js';
import { assertNoEviction, openRedis } from '../../main/cluster/redis-connection.js';
import { rowObjectKey } from '../../main/batch/output-address.js';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { openPostgres, postgresClientConfig } from '../../main/data/postgres/open-postgres.js';
import { LeaderLease } from '../../main/data/postgres/leader-lease.js';
import type { CoreData } from '../../main/data/core-data.js';
import { S3ObjectStore } from '../../main/objects/s3-object-store.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { createRenderPool, type RenderPool } from '../../main/render/render-pool.js';
import { RenderService } from '../../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import {
  sharedBucket,
  sharedPostgresDatabase,
  sharedRedisDatabase,
} from '../helpers/services/shared-services.js';
import { REPO_ROOT } from '../../main/app.js';

/**
 * The cluster's work path without an API node: a batch created in PostgreSQL, cut into BullMQ
 * chunk jobs, rendered by a worker into S3 and committed, then finished by the scheduler.
 */
let data: CoreData;
let pool: RenderPool;
let renderer: RenderService;
let objects: S3ObjectStore;
let coordination: Coordination;
let scheduler: ClusterScheduler;
let queue: ChunkQueue;
let closeWorker: () => Promise<void>;
let leader: Leader;
/** What the cluster parts logged, in order. */
const logged: string[] = [];
const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-worker-cache-'));

beforeAll(async () => {
  const [postgres, redisService, s3] = await Promise.all([
    sharedPostgresDatabase({ migrated: true }),
    sharedRedisDatabase(),
    sharedBucket(),
  ]);
  const pg = openPostgres(postgres.url);
  data = postgresCoreData(pg);
  await data.commands.initialiseAccount(1000);
  const redis = openRedis(redisService.url, 'test');
  await assertNoEviction(redis);
  objects = new S3ObjectStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  pool = createRenderPool({ threads: 1 });
  renderer = new RenderService({
    templates: catalog,
    pool,
    brandProfile: () => EMPTY_BRAND_PROFILE,
    resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
  });
  coordination = new Coordination(pg);
  queue = new ChunkQueue(openRedis(redisService.url, 'producer'));
  const log = (message: string) => void logged.push(message);
  scheduler = new ClusterScheduler(data, coordination, queue, log);
  await coordination.heartbeat({ id: 'node-test', role: 'all', threads: 1, host: 'test' });
  const worker = startClusterWorker({
    data,
    coordination,
    scheduler,
    objects,
    renderer,
    catalog,
    // Built-in templates only here; workspace templates are covered by the cluster scenarios.
    workspace: {
      catchUp: () => Promise.resolve(),
      assetsDir: (id) => path.join(cacheDir, 'no-workspace', id),
    },
    redis: openRedis(redisService.url, 'worker'),
    threads: 1,
    cacheDir,
    log,
  });
  closeWorker = () => worker.close();
  const lease = new LeaderLease(postgresClientConfig(postgres.url), { log });
  leader = new Leader({
    lock: { hold: () => lease.acquire(), release: () => lease.release() },
    coordination,
    scheduler,
    queue,
    objects,
    resumeIngest: () => Promise.resolve(),
    log,
    intervalMs: 500,
  });
  leader.start();
}, 180_000);

afterAll(async () => {
  await leader?.stop();
  await closeWorker?.();
  await queue?.close();
  await pool?.close();
  await objects?.close();
  await data?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}, 60_000);

async function waitForStatus(id: string, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await data.batches.get(id);
    if (batch && ['succeeded', 'partial', 'failed', 'degraded', 'cancelled'].includes(batch.status))
      return batch.status;
    if (Date.now() > deadline) throw new Error(`batch ${id} is still ${batch?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A batch of `records` on a built-in template, created in PostgreSQL and cut into chunk jobs. */
async function queueBatch(templateId: string, records: Record<string, unknown>[]): Promise<string> {
  const entry = catalog.get(templateId)!;
  const id = data.batches.newId();
  const now = new Date();
  const total = records.length;
  await data.commands.createBatch({
    batch: {
      id,
      templateId: entry.template.id,
      templateSnapshot: entry.template,
      templateVersion: null,
      assetsDir: entry.assetsDir,
      target: 'square',
      format: 'png',
      quality: null,
      sourceType: 'json-array',
      sourceRef: null,
      sheet: null,
      bindings: {},
      fileNamePattern: null,
      imagesDir: null,
      brand: EMPTY_BRAND_PROFILE,
      today: now.toISOString().slice(0, 10),
      status: 'queued',
      total,
      rejectedReason: null,
      apiKeyId: null,
      createdAt: now.toISOString(),
    },
    records: records.map((record, rowIndex) => ({ rowIndex, line: null, record })),
  });
  await scheduler.batchCreated(id, total);
  return id;
}

describe('the cluster work path', () => {
  it('renders every row of a batch once into S3, charges one credit per row and finishes it', async () => {
    const entry = catalog.get('tmpl_product_promo')!;
    const sample = templateFields(entry.template).sampleRow;
    const total = 120;
    const records = Array.from({ length: total }, (_, i) => ({
      ...sample,
      headline: `Serum ${i}`,
      ...(i === 7 ? { price: 'not a number' } : {}),
    }));
    const before = await data.ledger.account();
    const id = await queueBatch(entry.template.id, records);

    expect(await waitForStatus(id)).toBe('partial');
    const batch = (await data.batches.get(id))!;
    expect(batch.succeeded).toBe(total - 1);
    expect(batch.failed).toBe(1);
    const manifest = await data.batches.manifest(id, 0, 1000);
    expect(manifest.map((row) => row.rowIndex)).toEqual(records.map((_, i) => i));
    expect(manifest[7]!.status).toBe('failed');

    const after = await data.ledger.account();
    expect(before.balance - after.balance).toBe(total - 1);
    expect(after.heldCredits).toBe(0);
    expect((await data.ledger.verifyInvariant()).ok).toBe(true);

    // Every output is the single render of its row, byte for byte.
    for (const rowIndex of [0, 63, total - 1]) {
      const stored = await objects.get(rowObjectKey(id, rowIndex, 'png'));
      const job = renderer.prepare({
        templateId: entry.template.id,
        values: records[rowIndex]!,
        target: 'square',
        format: 'png',
      });
      const single = await renderer.run(job);
      expect(stored && Buffer.from(single.bytes).equals(stored)).toBe(true);
    }
  }, 240_000);
  it('ends the chunk of a batch deleted while its rows render, without failing it for a retry', async () => {
    const entry = catalog.get('tmpl_product_promo')!;
    const sample = templateFields(entry.template).sampleRow;
    const records = Array.from({ length: 200 }, (_, i) => ({ ...sample, headline: `Toner ${i}` }));
    const id = await queueBatch(entry.template.id, records);
    const deadline = Date.now() + 60_000;
    while (((await data.batches.get(id))?.succeeded ?? 0) === 0) {
      expect(Date.now(), 'no row of the batch was committed').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // What DELETE /v1/render-batches/:id does in a cluster, while rows are still being drawn.
    await data.commands.cancelBatch(id);
    await data.batches.remove(id);
    await coordination.tombstone(id);

    // Every job of the batch ran out: none waits, runs or waits for a retry.
    for (;;) {
      const counts = await queue.counts();
      if ((counts.active ?? 0) + (counts.waiting ?? 0) + (counts.delayed ?? 0) === 0) break;
      expect(Date.now(), JSON.stringify(counts)).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logged.filter((line) => line.includes(id))).toEqual([]);
    expect(await data.batches.get(id)).toBeNull();
  }, 120_000);
});
