/**
 * `node --expose-gc --import tsx bench/bundle-stream-bench.ts`: the bundle writer alone, reading
 * from S3 (s3rver on this machine) into a sink that takes bytes as fast as they come, in this
 * process. What `npm run bench:cluster` measures through a whole API node, without the database,
 * HTTP and the downloading client, so that this process's CPU and memory are the bundle's own.
 * Add an API node's flags (API_NODE_FLAGS) and the malloc settings (CORE_MALLOC_ENV), both in
 * main/core-process-env.ts, to see an API node's RSS.
 *
 * For each size in BENCH_BUNDLE_SIZES (default 2000,5000,10000,20000): planning the bundle (the
 * size of each output), then the stream: MiB/s, CPU ms per MiB, peak RSS by quarter, and the V8
 * heap and Buffer memory in use after a forced GC at each quarter (memory that only grows until
 * GC is not a leak; memory that stays up after GC is). Outputs are BENCH_OUTPUT_KIB (default
 * 166, the reference render's size) random KiB each: entries are stored, not compressed, so their
 * content does not change the work.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceScope, startS3 } from '../tests/helpers/cluster-services.js';
import { S3ObjectStore } from '../main/objects/s3-object-store.js';
import { createBundleStream, type BundleEntry } from '../main/batch/bundle-writer.js';
import { fmt } from './stats.js';

const SIZES = (process.env.BENCH_BUNDLE_SIZES ?? '2000,5000,10000,20000').split(',').map(Number);
const OUTPUT_BYTES = Number(process.env.BENCH_OUTPUT_KIB ?? 166) * 1024;
/** Outputs opened ahead of the one being written (the writer's default when unset). */
const READ_AHEAD = process.env.BENCH_READ_AHEAD ? Number(process.env.BENCH_READ_AHEAD) : undefined;

/** When set, a CPU profile of each planning and each stream is written into this folder. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

const FOLDER = (size: number) => `batches/bat_bench_${size}/`;

const gc = (globalThis as { gc?: () => void }).gc;

const mib = (bytes: number) => bytes / 1048576;

/** V8 heap and Buffer memory still in use after a full GC: what the process really holds. */
function liveAfterGc(): { heap: number; buffers: number } {
  heapTotals.push(mib(process.memoryUsage().heapTotal));
  gc?.();
  const usage = process.memoryUsage();
  return { heap: mib(usage.heapUsed), buffers: mib(usage.arrayBuffers) };
}

/** The V8 heap's size (not its use) just before each forced GC: how far V8 let it grow. */
const heapTotals: number[] = [];

const showLive = (live: { heap: number; buffers: number }) =>
  `${fmt(live.heap, 1)}+${fmt(live.buffers, 1)}`;

/** Runs `fn` under the V8 profiler when BENCH_PROFILE_DIR is set. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return fn();
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc, so heap figures are after a full GC');
  console.log(
    `bundle writer from s3rver: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => fmt(l))
      .join(' ')}`,
  );
  const scope = new ServiceScope();
  try {
    const s3 = await startS3(scope);
    const objects = new S3ObjectStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    // A folder per size, as a batch's outputs have theirs: sizes() lists the folder.
    const keys = SIZES.flatMap((size) =>
      Array.from({ length: size }, (_, i) => `${FOLDER(size)}${i}.png`),
    );
    const bytes = crypto.randomBytes(OUTPUT_BYTES);
    let next = 0;
    const put = async () => {
      while (next < keys.length) await objects.put(keys[next++]!, bytes);
    };
    const putStarted = Date.now();
    await Promise.all(Array.from({ length: 16 }, put));
    console.log(
      `stored ${keys.length} objects of ${OUTPUT_BYTES / 1024} KiB in ${fmt((Date.now() - putStarted) / 1000)} s`,
    );
    for (const size of SIZES) {
      const sizeKeys = keys.filter((key) => key.startsWith(FOLDER(size)));
      const headStarted = Date.now();
      const cpuHead = process.cpuUsage();
      const sizes = await profiled(`plan-${size}`, () => objects.sizes(FOLDER(size), sizeKeys));
      const headCpu = process.cpuUsage(cpuHead);
      const headSeconds = (Date.now() - headStarted) / 1000;
      const entries: BundleEntry[] = sizeKeys.map((key, i) => ({
        name: `${i}.png`,
        size: sizes[i]!,
        open: () => objects.getStream(key),
      }));
      const rssBefore = mib(process.memoryUsage().rss);
      const liveBefore = liveAfterGc();
      const total = size * OUTPUT_BYTES;
      const rss: number[] = [];
      const lives: { heap: number; buffers: number }[] = [];
      heapTotals.length = 0;
      let seen = 0;
      let quarter = 1;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          seen += chunk.length;
          if (seen >= (total * quarter) / 4) {
            quarter += 1;
            lives.push(liveAfterGc());
          }
          done();
        },
      });
      const sampler = setInterval(() => rss.push(mib(process.memoryUsage.rss())), 100);
      const cpu = process.cpuUsage();
      const started = Date.now();
      await profiled(`stream-${size}`, () =>
        pipeline(
          createBundleStream(
            entries,
            [],
            READ_AHEAD !== undefined ? { readAhead: READ_AHEAD } : {},
          ),
          sink,
        ),
      );
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      const q = Math.max(1, Math.floor(rss.length / 4));
      const quarters = [0, 1, 2, 3].map((i) =>
        Math.max(...rss.slice(i * q, i === 3 ? rss.length : (i + 1) * q)),
      );
      console.log(
        `${size} outputs: planned in ${fmt(headSeconds)} s (${fmt((((headCpu.user + headCpu.system) / 1e3) * 1000) / size / 1000, 2)} ms CPU per output); ` +
          `stream ${fmt(mib(seen))} MiB in ${fmt(seconds, 2)} s = ${fmt(mib(seen) / seconds)} MiB/s, ` +
          `${fmt((cpuSeconds * 1000) / mib(seen), 1)} ms CPU/MiB; RSS ${fmt(rssBefore, 0)} → by quarter ${quarters.map((v) => fmt(v, 0)).join(', ')} MiB; ` +
          `heap+buffers after GC ${showLive(liveBefore)} → ${lives.map(showLive).join(', ')} MiB, heap size before each GC ${heapTotals.map((v) => fmt(v, 0)).join(', ')} MiB (load ${fmt(os.loadavg()[0]!)})`,
      );
    }
    await objects.close();
  } finally {
    await scope.stopAll().catch((error: unknown) => console.error(error));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
