/**
 * `npm run bench:cluster`: cluster mode against its bars, measured in one run on this machine.
 *
 *   1. Overhead: the reference batch (BENCH_ROWS rows, default 10,000) rendered by embedded mode
 *      (one process, 2 render threads) and by a cluster of 1 API + 1 worker process (2 threads),
 *      one after the other; bar: cluster ≥ 90 % of embedded rows/s. The cluster's outputs go to
 *      a shared folder (dir:) so the figure is the cluster's, not a local S3 emulator's CPU.
 *   2. Bundle: a batch of BENCH_BUNDLE_ROWS (10,000) reference outputs streamed as one zip from
 *      S3 (s3rver on this machine); bar ≥ 80 MiB/s with flat RSS. A list of sizes
 *      (BENCH_BUNDLE_ROWS=2000,10000,20000) streams each in turn from one API node, to show
 *      that its RSS does not grow with the bundle's size. The outputs are copies of one
 *      real render put straight into the store, so the figure is the bundle's, not rendering's.
 *      The API node starts with the flags an API-only node gets (main/core-process-env.ts);
 *      BENCH_API_NODE_FLAGS=render starts it with the render-tuned ones instead, and any other
 *      value with those V8 flags (space-separated), to compare.
 *
 *      Flat RSS: the API node's RSS (VmRSS, sampled every 200 ms) peaks in each of the
 *      download's four quarters (by time) at most FLAT_GROWTH (10 %) above its peak in the first
 *      quarter. The first quarter holds what a bundle costs once (its plan: rows, names, the
 *      zip's entry table; the connections to the store; V8's young generation reaching its
 *      size), so it is the baseline; memory kept per byte streamed shows as a rise after it. 10 %
 *      (~40 MiB on a ~400 MiB node) lies above the few tens of MiB that one GC cycle moves RSS
 *      and below the 45–100 MiB that the node climbed when it ran with the render-tuned flags.
 *      Across sizes, each bundle's peak is held to the same 10 % over the first (smallest)
 *      bundle's peak: RSS must not scale with the number of outputs.
 *
 * BENCH_PARTS=overhead,bundle picks the parts; BENCH_REPEAT=n alternates embedded and cluster
 * runs n times each and reports medians (a shared machine's load moves both alike).
 *   3. The control plane (PostgreSQL + BullMQ with a no-op renderer) is bench/cluster-control-plane.ts.
 *
 * Services are started here (PostgreSQL, Redis, s3rver) and stopped at the end.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
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
import { fmt, processCpuSeconds, processRssMiB, stopProcess } from './stats.js';
import { rowObjectKey } from '../main/batch/output-address.js';
import { openPostgres } from '../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../main/data/postgres/postgres-core-data.js';
import { S3ObjectStore } from '../main/objects/s3-object-store.js';
import { API_NODE_FLAGS, CORE_NODE_FLAGS } from '../main/core-process-env.js';

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

/** The downloading process: node:http's own stream, the bytes counted and thrown away. */
const DOWNLOADER = `
const http = require('node:http');
http.get(process.argv[1], (res) => {
  if (res.statusCode !== 200) { console.error('the bundle answered ' + res.statusCode); process.exit(1); }
  let bytes = 0;
  res.on('data', (chunk) => (bytes += chunk.length));
  res.on('end', () => {
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ bytes, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
  });
}).on('error', (error) => { console.error(error.message); process.exit(1); });
`;

/**
 * Reads a download to its end in a process of its own, as `curl -o` would. Counted here, the
 * bytes went through fetch's web streams (4.6 ms of CPU per MiB) and this process's heap, which
 * holds every output it stored: its collections took up to 5 ms per MiB more, on the two cores
 * the API node and the S3 emulator share with it (a client's cost, not the server's).
 */
function download(url: string): Promise<{ bytes: number; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', DOWNLOADER, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`the download ended with ${code}`));
      else resolve(JSON.parse(out) as { bytes: number; cpuSeconds: number });
    });
  });
}

/**
 * Streams the bundle, sampling the API node's RSS; MiB/s, the RSS range seen, and the CPU time
 * the API node, the S3 server and this client each used while it streamed.
 */
async function timeBundle(base: string, id: string, pid: number, s3Pid: number) {
  const link = (await (await api(base, `/v1/render-batches/${id}/bundle`)).json()) as {
    url: string;
  };
  const rssBefore = processRssMiB(pid);
  const rss: number[] = [rssBefore];
  const sampler = setInterval(() => rss.push(processRssMiB(pid)), 200);
  const cpuBefore = { api: processCpuSeconds(pid), s3: processCpuSeconds(s3Pid) };
  const started = Date.now();
  const { bytes, cpuSeconds: client } = await download(link.url);
  const seconds = (Date.now() - started) / 1000;
  const cpu = {
    api: processCpuSeconds(pid) - cpuBefore.api,
    s3: processCpuSeconds(s3Pid) - cpuBefore.s3,
    client,
  };
  clearInterval(sampler);
  // Peak RSS in each quarter of the download (see "Flat RSS" above).
  const quarter = Math.max(1, Math.floor(rss.length / 4));
  const quarters = [0, 1, 2, 3].map((q) =>
    Math.max(...rss.slice(q * quarter, q === 3 ? rss.length : (q + 1) * quarter)),
  );
  return {
    mib: bytes / 1048576,
    mibPerSecond: bytes / 1048576 / seconds,
    rssBefore,
    quarters,
    seconds,
    cpu,
  };
}

const PARTS = new Set((process.env.BENCH_PARTS ?? 'overhead,bundle').split(','));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
/** Bundle sizes to stream, in turn, from one API node: e.g. BENCH_BUNDLE_ROWS=2000,5000,10000. */
const BUNDLE_ROWS = (process.env.BENCH_BUNDLE_ROWS ?? '10000').split(',').map(Number);

/** How far above the first quarter's (or first bundle's) peak RSS may rise and still be flat. */
const FLAT_GROWTH = 0.1;

/** Growth of the later peaks over the first, as a fraction, and whether it is flat. */
function rssGrowth(peaks: readonly number[]): { growth: number; flat: boolean } {
  const first = peaks[0] ?? 0;
  const growth = first > 0 ? Math.max(...peaks.slice(1)) / first - 1 : 0;
  return { growth, flat: growth <= FLAT_GROWTH };
}

const verdict = ({ growth, flat }: { growth: number; flat: boolean }) =>
  `${growth >= 0 ? '+' : ''}${fmt(growth * 100)} % (${flat ? 'flat' : 'NOT flat'}: bar ≤ +${fmt(FLAT_GROWTH * 100, 0)} %)`;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function embeddedRun(rows: Json[]): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-cluster-bench-embedded-'));
  const served = await spawnServe(
    dir,
    {
      RENDER_DESK_API_KEY: KEY,
      RENDER_DESK_CREDITS: '10000000',
      RENDER_DESK_RATE_LIMIT: '1000000',
    },
    2,
  );
  try {
    return (await timeBatch(served.url, rows)).rowsPerSecond;
  } finally {
    await stopProcess(served.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function overhead(rows: Json[]): Promise<void> {
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
    const init = await clusterInit(env, redis.url, `dir:${shared}`);
    if (init.code !== 0) throw new Error(init.output);
    const embedded: number[] = [];
    const cluster: number[] = [];
    for (let run = 0; run < REPEAT; run += 1) {
      embedded.push(await embeddedRun(rows));
      const apiNode = await startClusterNode(env, 'api', { workers: 1, extraEnv });
      const worker = await startClusterNode(env, 'worker', { workers: 2, extraEnv });
      cluster.push((await timeBatch(apiNode.url!, rows)).rowsPerSecond);
      await worker.stop();
      await apiNode.stop();
      console.log(
        `run ${run + 1}: embedded ${fmt(embedded.at(-1)!)} rows/s, cluster ${fmt(cluster.at(-1)!)} rows/s`,
      );
    }
    const ratio = median(cluster) / median(embedded);
    console.log(
      `overhead: embedded ${fmt(median(embedded))} rows/s, cluster (1 API + 1 worker, 2 threads, dir store) ${fmt(median(cluster))} rows/s = ${fmt(ratio * 100, 0)} % (bar ≥ 90 %; medians of ${REPEAT})`,
    );
  } finally {
    await scope.stopAll().catch((error: unknown) => console.error(error));
    fs.rmSync(shared, { recursive: true, force: true });
  }
}

/** One real render of the reference template: the bytes every bundle entry carries. */
async function referenceOutput(rows: Json[]): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-cluster-bench-one-'));
  const served = await spawnServe(
    dir,
    { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '1000', RENDER_DESK_RATE_LIMIT: '1000000' },
    1,
  );
  try {
    const res = await api(served.url, '/v1/render', {
      method: 'POST',
      json: { templateId: TEMPLATE, values: rows[0] },
    });
    return Buffer.from(await res.arrayBuffer());
  } finally {
    await stopProcess(served.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A finished batch of `count` rows whose outputs are copies of `png` put straight into S3. */
async function storedBatch(
  data: ReturnType<typeof postgresCoreData>,
  objects: S3ObjectStore,
  png: Buffer,
  count: number,
): Promise<string> {
  await data.ledger.grant(count);
  const id = data.batches.newId();
  const now = new Date().toISOString();
  await data.commands.createBatch({
    batch: {
      id,
      templateId: TEMPLATE,
      templateSnapshot: {},
      templateVersion: null,
      assetsDir: '/',
      target: 'square',
      format: 'png',
      quality: null,
      sourceType: 'json-array',
      sourceRef: null,
      sheet: null,
      bindings: {},
      fileNamePattern: null,
      imagesDir: null,
      brand: {},
      today: now.slice(0, 10),
      status: 'running',
      total: count,
      rejectedReason: null,
      apiKeyId: null,
      createdAt: now,
    },
    records: Array.from({ length: count }, (_, rowIndex) => ({
      rowIndex,
      line: null,
      record: {},
    })),
  });
  const pending = await data.batches.pendingInRange(id, 0, count);
  let next = 0;
  const put = async () => {
    while (next < pending.length) {
      const row = pending[next++]!;
      await objects.put(rowObjectKey(id, row.rowIndex, 'png'), png, { contentType: 'image/png' });
    }
  };
  const putStarted = Date.now();
  await Promise.all(Array.from({ length: 16 }, put));
  console.log(
    `stored ${count} outputs of ${fmt(png.length / 1024, 0)} KiB in S3 in ${fmt((Date.now() - putStarted) / 1000)} s`,
  );
  for (let from = 0; from < pending.length; from += 500) {
    await data.commands.commitRows(
      { batchId: id, templateId: TEMPLATE, ratio: 'square', format: 'png', apiKeyId: null },
      pending.slice(from, from + 500).map((row) => ({
        ok: true as const,
        rowIndex: row.rowIndex,
        renderId: row.renderId,
        outputKey: `${id}.${row.rowIndex}.png`,
        bytes: png.length,
      })),
    );
  }
  await data.commands.finishBatch({
    batchId: id,
    stopReason: null,
    ingestError: null,
    pausing: false,
  });
  return id;
}

async function bundle(rows: Json[]): Promise<void> {
  const png = await referenceOutput(rows);
  const scope = new ServiceScope();
  try {
    const [postgres, redis, s3] = await Promise.all([
      startPostgres(scope),
      startRedis(scope),
      startS3(scope),
    ]);
    const env = { postgres, redis, s3, apiKey: KEY, lockMs: 30_000 };
    const store = `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}`;
    const init = await clusterInit(env, redis.url, store);
    if (init.code !== 0) throw new Error(init.output);
    const pool = openPostgres(postgres.url);
    const data = postgresCoreData(pool);
    const objects = new S3ObjectStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const batches: { count: number; id: string }[] = [];
    for (const count of BUNDLE_ROWS) {
      batches.push({ count, id: await storedBatch(data, objects, png, count) });
    }
    await objects.close();
    await data.close();
    // One API node streams every size in turn: its RSS must not climb from one to the next.
    const asked = process.env.BENCH_API_NODE_FLAGS;
    const flags: readonly string[] =
      asked === 'render' ? CORE_NODE_FLAGS : asked ? asked.split(/\s+/) : API_NODE_FLAGS;
    const apiNode = await startClusterNode(env, 'api', { workers: 1, nodeFlags: flags });
    console.log(
      `API node started with ${flags.join(' ')}${asked ? ` (BENCH_API_NODE_FLAGS=${asked})` : ''}`,
    );
    const peaks: number[] = [];
    try {
      for (const { count, id } of batches) {
        const result = await timeBundle(apiNode.url!, id, apiNode.child.pid!, s3.pid);
        peaks.push(Math.max(...result.quarters));
        console.log(
          `bundle of ${count} outputs from S3: ${fmt(result.mib)} MiB at ${fmt(result.mibPerSecond)} MiB/s (bar ≥ 80: ${result.mibPerSecond >= 80 ? 'met' : 'NOT met'}; load ${fmt(os.loadavg()[0]!)}); API node RSS ${fmt(result.rssBefore, 0)} MiB before, peak by quarter of the download: ${result.quarters.map((q) => fmt(q, 0)).join(', ')} MiB, highest later quarter over the first ${verdict(rssGrowth(result.quarters))}`,
        );
        const { cpu } = result;
        // Who used the 2 cores: the S3 emulator's share is not the API node's cost.
        console.log(
          `  CPU while streaming ${fmt(result.seconds)} s: API node ${fmt(cpu.api)} s (${fmt((cpu.api / result.mib) * 1000, 1)} ms/MiB), s3rver ${fmt(cpu.s3)} s (${fmt((cpu.s3 / result.mib) * 1000, 1)} ms/MiB), the downloader ${fmt(cpu.client)} s (${fmt((cpu.client / result.mib) * 1000, 1)} ms/MiB); at the API node's own cost one core would stream ${fmt(result.mib / cpu.api)} MiB/s`,
        );
      }
      if (batches.length > 1)
        console.log(
          `peak RSS by bundle (${batches.map((b) => b.count).join(', ')} outputs): ${peaks.map((p) => fmt(p, 0)).join(', ')} MiB, highest over the first bundle's ${verdict(rssGrowth(peaks))}`,
        );
    } finally {
      await apiNode.stop();
    }
  } finally {
    await scope.stopAll().catch((error: unknown) => console.error(error));
  }
}

async function main(): Promise<void> {
  const rows = referenceRows();
  console.log(
    `Reference batch: ${ROWS} rows of ${TEMPLATE}, 2 render threads, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => fmt(l))
      .join(' ')}`,
  );
  if (PARTS.has('overhead')) await overhead(rows);
  if (PARTS.has('bundle')) await bundle(rows);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
