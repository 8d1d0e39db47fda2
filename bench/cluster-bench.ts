/**
 * `npm run bench:cluster`: cluster mode against its bars, measured in one run on this machine.
 *
 *   1. Overhead: the reference batch (BENCH_ROWS rows, default 10,000) rendered by embedded mode
 *      (one process, 2 render threads) and by a cluster of 1 API + 1 worker process (2 threads),
 *      one after the other; bar: cluster ≥ 90 % of embedded rows/s. The cluster's outputs go to
 *      a shared folder (dir:) so the figure is the cluster's, not a local S3 emulator's CPU.
 *   2. Bundle: the same batch's zip streamed from S3 (s3rver); bar ≥ 80 MiB/s with flat RSS.
 *   3. The control plane (PostgreSQL + BullMQ with a no-op renderer) is bench/cluster-control-plane.ts.
 *
 * Services are started here (PostgreSQL, Redis, s3rver) and stopped at the end.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../main/app.js';
import { loadCatalog } from '../main/catalog/load-catalog.js';
import { templateFields } from '../main/batch/template-fields.js';
import { spawnServe } from '../tests/helpers/spawn-serve.js';
import { clusterInit, startClusterNode } from '../tests/helpers/cluster-node.js';
import {
  ServiceScope,
  startPostgres,
  startRedis,
  startS3,
} from '../tests/helpers/cluster-services.js';
import { fmt, processRssMiB, stopProcess } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const KEY = `rdk_cluster_bench_${crypto.randomBytes(8).toString('hex')}`;
const TEMPLATE = 'tmpl_product_promo';

type Json = Record<string, unknown>;

function referenceRows(): Json[] {
  const entry = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog')).get(TEMPLATE)!;
  const sample = templateFields(entry.template).sampleRow;
  return Array.from({ length: ROWS }, (_, i) => ({ ...sample, headline: `Vitamin C Serum ${i}` }));
}

async function api(base: string, pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${KEY}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(base + pathname, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

/** Creates the batch and waits for it; rows/s from acceptance to the terminal status. */
async function timeBatch(
  base: string,
  rows: Json[],
): Promise<{ id: string; rowsPerSecond: number }> {
  const started = Date.now();
  const res = await api(base, '/v1/render-batches', {
    method: 'POST',
    json: { templateId: TEMPLATE, sourceType: 'json-array', source: { records: rows } },
  });
  const { id } = (await res.json()) as { id: string };
  for (;;) {
    const batch = (await (await api(base, `/v1/render-batches/${id}`)).json()) as Json;
    if (!['queued', 'running'].includes(String(batch.status))) {
      if (batch.status !== 'succeeded') throw new Error(`batch ended ${String(batch.status)}`);
      return { id, rowsPerSecond: rows.length / ((Date.now() - started) / 1000) };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Streams the bundle, sampling the API node's RSS; MiB/s and the RSS range seen. */
async function timeBundle(base: string, id: string, pid: number) {
  const link = (await (await api(base, `/v1/render-batches/${id}/bundle`)).json()) as {
    url: string;
  };
  const rss: number[] = [processRssMiB(pid)];
  const sampler = setInterval(() => rss.push(processRssMiB(pid)), 200);
  const started = Date.now();
  const res = await fetch(link.url);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
    bytes += chunk.byteLength;
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  return {
    mib: bytes / 1048576,
    mibPerSecond: bytes / 1048576 / seconds,
    rssMin: Math.min(...rss),
    rssMax: Math.max(...rss),
  };
}

async function main(): Promise<void> {
  const rows = referenceRows();
  console.log(
    `Reference batch: ${ROWS} rows of ${TEMPLATE}, 2 render threads, ${os.cpus().length} cores`,
  );

  // 1a. Embedded mode.
  const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-cluster-bench-embedded-'));
  const embedded = await spawnServe(
    embeddedDir,
    {
      RENDER_DESK_API_KEY: KEY,
      RENDER_DESK_CREDITS: '10000000',
      RENDER_DESK_RATE_LIMIT: '1000000',
    },
    2,
  );
  const local = await timeBatch(embedded.url, rows);
  console.log(`embedded: ${fmt(local.rowsPerSecond)} rows/s`);
  await stopProcess(embedded.child);
  fs.rmSync(embeddedDir, { recursive: true, force: true });

  const scope = new ServiceScope();
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-cluster-bench-shared-'));
  try {
    const [postgres, redis, s3] = await Promise.all([
      startPostgres(scope),
      startRedis(scope),
      startS3(scope),
    ]);
    const env = { postgres, redis, s3, apiKey: KEY, lockMs: 30_000 };
    const extraEnv = { RENDER_DESK_CREDITS: '10000000', RENDER_DESK_RATE_LIMIT: '1000000' };

    // 1b. The cluster: 1 API + 1 worker (2 threads), outputs in a shared folder.
    const init = await clusterInit(env, redis.url, `dir:${shared}`);
    if (init.code !== 0) throw new Error(init.output);
    const apiNode = await startClusterNode(env, 'api', { workers: 1, extraEnv });
    const worker = await startClusterNode(env, 'worker', { workers: 2, extraEnv });
    const cluster = await timeBatch(apiNode.url!, rows);
    const ratio = cluster.rowsPerSecond / local.rowsPerSecond;
    console.log(
      `cluster (1 API + 1 worker, dir store): ${fmt(cluster.rowsPerSecond)} rows/s = ${fmt(ratio * 100, 0)} % of embedded (bar ≥ 90 %)`,
    );

    // 2. The same kind of batch with outputs in S3, then its bundle streamed from S3.
    await worker.stop();
    await apiNode.stop();
    const reinit = await clusterInit(
      env,
      redis.url,
      `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}`,
    );
    if (reinit.code !== 0) throw new Error(reinit.output);
    const s3Api = await startClusterNode(env, 'api', { workers: 1, extraEnv });
    const s3Worker = await startClusterNode(env, 'worker', { workers: 2, extraEnv });
    const onS3 = await timeBatch(s3Api.url!, rows);
    console.log(
      `cluster with outputs in S3 (s3rver on this machine): ${fmt(onS3.rowsPerSecond)} rows/s`,
    );
    await s3Worker.stop();
    const bundle = await timeBundle(s3Api.url!, onS3.id, s3Api.child.pid!);
    console.log(
      `bundle of ${ROWS} outputs from S3: ${fmt(bundle.mib)} MiB at ${fmt(bundle.mibPerSecond)} MiB/s (bar ≥ 80), API node RSS ${fmt(bundle.rssMin, 0)}–${fmt(bundle.rssMax, 0)} MiB`,
    );
    await s3Api.stop();
  } finally {
    await scope.stopAll().catch((error: unknown) => console.error(error));
    fs.rmSync(shared, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
