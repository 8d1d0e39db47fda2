/**
 * Cluster control plane, measured with a no-op renderer (issue bar: PostgreSQL + BullMQ commit
 * ≥ 5,000 rows/s on this machine, and Redis memory flat after 20,000 chunk jobs). Everything but
 * drawing runs as in production: chunk planning, BullMQ jobs with their locks, the worker's chunk
 * processor, outputs written to a folder store on tmpfs, grouped row commits with their debits.
 *
 *   npx tsx bench/cluster-control-plane.ts       (BENCH_ROWS rows, default 100,000)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { REPO_ROOT } from '../main/app.js';
import { loadCatalog } from '../main/catalog/load-catalog.js';
import { batchRowContext, type BatchRowContext } from '../main/batch/render-batch-row.js';
import { ChunkProcessor } from '../main/cluster/chunk-processor.js';
import { ChunkQueue, startChunkWorker } from '../main/cluster/chunk-queue.js';
import { ClusterScheduler } from '../main/cluster/cluster-scheduler.js';
import { Coordination } from '../main/cluster/coordination.js';
import { openRedis } from '../main/cluster/redis-connection.js';
import { migratePostgres } from '../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../main/data/postgres/migrations/index.js';
import { openPostgres } from '../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../main/data/postgres/postgres-core-data.js';
import { createImageReferenceResolver } from '../main/engine/image-reference.js';
import { FolderObjectStore } from '../main/objects/folder-object-store.js';
import type { RenderPool } from '../main/render/render-pool.js';
import type { RenderJob, RenderSuccess } from '../main/render/render-protocol.js';
import type { ObjectStore } from '../main/objects/object-store.js';
import { RenderService } from '../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../shared/brand-profile.js';
import { ServiceScope, startPostgres, startRedis } from '../tests/helpers/cluster-services.js';
import { fmt } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Chunk jobs run at once in this process: as many as ~25 two-thread workers would hold. */
const CONCURRENT_CHUNKS = Number(process.env.BENCH_CHUNKS ?? 16);

/**
 * A renderer that draws nothing and checks nothing: the same 1 KB for every row. What is left
 * is what the cluster adds per row and per chunk (PostgreSQL, BullMQ, the output put).
 */
class NoOpRenderer extends RenderService {
  private readonly bytes = new Uint8Array(1024).fill(7);

  override prepare(): RenderJob {
    return {} as RenderJob;
  }

  override run(): Promise<RenderSuccess> {
    return Promise.resolve({
      ok: true,
      bytes: this.bytes,
      contentType: 'image/png',
      report: { layers: [], missingGlyphs: [] },
    } as unknown as RenderSuccess);
  }
}

/** Puts that cost nothing, so the figure is the control plane's, not this disk's. */
function nullObjectStore(): ObjectStore {
  return { put: () => Promise.resolve() } as unknown as ObjectStore;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const scope = new ServiceScope();
  const shm = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const outDir = fs.mkdtempSync(path.join(shm, 'rd-cp-bench-'));
  try {
    const [postgres, redisService] = await Promise.all([startPostgres(scope), startRedis(scope)]);
    const pg = openPostgres(postgres.url, { max: 24 });
    await migratePostgres(pg, POSTGRES_MIGRATIONS);
    const data = postgresCoreData(pg);
    await data.ledger.grant(10_000_000);
    const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
    const entry = catalog.get('tmpl_quote_card') ?? catalog.list()[0]!;
    const renderer = new NoOpRenderer({
      templates: catalog,
      pool: undefined as unknown as RenderPool,
      brandProfile: () => EMPTY_BRAND_PROFILE,
      resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
    });
    const objects =
      process.env.BENCH_STORE === 'folder'
        ? await FolderObjectStore.open(outDir)
        : nullObjectStore();
    const coordination = new Coordination(pg);
    const redis = openRedis(redisService.url, 'bench');
    const queue = new ChunkQueue(openRedis(redisService.url, 'bench-producer'));
    const log = () => undefined;
    const scheduler = new ClusterScheduler(data, coordination, queue, log);
    // Fifty two-thread workers' worth of live threads: chunks are sized as for that cluster.
    await coordination.heartbeat({ id: 'bench', role: 'worker', threads: 100, host: 'bench' });
    let context: Promise<BatchRowContext> | undefined;
    const processor = new ChunkProcessor({
      data,
      coordination,
      renderer,
      objects,
      // Built once per batch, as the worker role caches it.
      rowContext: (batch) =>
        (context ??= data.batches.recordFields(batch.id).then((fields) =>
          batchRowContext(batch, {
            assetsDir: entry.assetsDir,
            fields,
            resolveImage: () => {
              throw new Error('no images in this bench');
            },
          }),
        )),
      afterChunk: (batchId, allDone) => scheduler.afterChunk(batchId, allDone),
      rowsInFlight: 8,
      log,
    });
    const worker = startChunkWorker(openRedis(redisService.url, 'bench-worker'), {
      concurrency: CONCURRENT_CHUNKS,
      process: (job, signal) => processor.process(job, signal),
    });

    const sample = Object.fromEntries(
      entry.template.variables
        .filter((v) => !v.bindsTo)
        .map((v) => [v.name, entry.template.sampleValues[v.name] ?? v.default ?? null]),
    );
    const id = data.batches.newId();
    const now = new Date();
    const created = Date.now();
    await data.commands.createBatch({
      batch: {
        id,
        templateId: entry.template.id,
        templateSnapshot: entry.template,
        templateVersion: null,
        assetsDir: entry.assetsDir,
        target: entry.ratios[0]!,
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
        total: ROWS,
        rejectedReason: null,
        apiKeyId: null,
        createdAt: now.toISOString(),
      },
      records: Array.from({ length: ROWS }, (_, rowIndex) => ({
        rowIndex,
        line: null,
        record: sample,
      })),
    });
    console.log(`created ${ROWS} rows in ${fmt((Date.now() - created) / 1000)} s`);
    const memoryBefore = await usedMemory(redis);
    const started = Date.now();
    await scheduler.batchCreated(id, ROWS);
    const samples: string[] = [];
    for (;;) {
      const batch = await data.batches.get(id);
      const done = (batch?.succeeded ?? 0) + (batch?.failed ?? 0);
      const counts = await queue.counts();
      samples.push(
        `${done} rows, ${counts.completed ?? 0} jobs kept, ${fmt((await usedMemory(redis)) / 1048576)} MiB`,
      );
      if (batch && batch.status !== 'queued' && batch.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const seconds = (Date.now() - started) / 1000;
    const batch = await data.batches.get(id);
    const account = await data.ledger.account();
    const invariant = await data.ledger.verifyInvariant();
    const chunks = await pg.query<{ n: string; dispatches: string }>(
      'SELECT COUNT(*) AS n, SUM(dispatches) AS dispatches FROM batch_chunks WHERE batch_id = $1',
      [id],
    );
    console.log(samples.filter((_, i) => i % 5 === 0).join('\n'));
    console.log(
      `\n${batch?.status}: ${batch?.succeeded} rows committed in ${fmt(seconds)} s = ${fmt((batch?.succeeded ?? 0) / seconds, 0)} rows/s ` +
        `(bar ≥ 5,000), ${chunks.rows[0]?.n} chunks, ${chunks.rows[0]?.dispatches} dispatches`,
    );
    console.log(
      `Redis used_memory: ${fmt(memoryBefore / 1048576)} MiB before, ${fmt((await usedMemory(redis)) / 1048576)} MiB after`,
    );
    console.log(
      `ledger: debited ${account.debited}, held ${account.heldCredits}, invariant ${invariant.ok}`,
    );

    await worker.close();

    // Redis memory over 20,000 chunk jobs with the production job options: finished jobs are
    // kept a while for operators, up to a count, so memory levels off instead of growing.
    const idle = startChunkWorker(openRedis(redisService.url, 'bench-idle'), {
      concurrency: 32,
      process: () => Promise.resolve(),
    });
    const memory: string[] = [`0 jobs: ${fmt((await usedMemory(redis)) / 1048576)} MiB`];
    for (let n = 0; n < 20_000; n += 1) {
      await queue.add({ batchId: `bat_bench${Math.floor(n / 1000)}`, n, from: 0, to: 1 }, 1);
      if ((n + 1) % 5000 === 0) {
        while (((await queue.counts()).waiting ?? 0) + ((await queue.counts()).active ?? 0) > 0)
          await new Promise((resolve) => setTimeout(resolve, 100));
        memory.push(`${n + 1} jobs: ${fmt((await usedMemory(redis)) / 1048576)} MiB`);
      }
    }
    console.log(`Redis used_memory over 20,000 chunk jobs: ${memory.join(', ')}`);
    await idle.close();
    await queue.close();
    await data.close();
    redis.disconnect();
  } finally {
    await scope.stopAll().catch(() => undefined);
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
