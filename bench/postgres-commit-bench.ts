/**
 * Control-plane capacity of cluster mode: how many batch rows per second PostgreSQL commits
 * through `commitRows` (row status + debit + render record + counters), with a no-op renderer,
 * in groups of 50 rows as workers send them.
 *
 *   npx tsx bench/postgres-commit-bench.ts                    starts its own PostgreSQL
 *   BENCH_POSTGRES_URL=postgres://… npx tsx bench/postgres-commit-bench.ts   uses that database
 *
 * Knobs: BENCH_ROWS (rows per run, default 20,000), BENCH_GROUP (rows per commit, 50),
 * BENCH_COMMITTERS (committers per process, 4), BENCH_PROCESSES (committing processes, 1: the
 * committers of one process merge waiting groups, those of separate processes cannot),
 * BENCH_RUNS (timed runs, 5; an untimed warm-up run comes first). The figure is the median of
 * the runs' rows/s. Each run also prints the CPU time of this process and of the PostgreSQL
 * server it started, and the load average: on a machine busy with other work the rows/s say
 * as much about the neighbours as about this code.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import type pg from 'pg';
import type { CoreData } from '../main/data/core-data.js';
import type { RowOutcome } from '../main/data/data-commands.js';
import { migratePostgres } from '../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../main/data/postgres/postgres-core-data.js';
import { ServiceScope, startPostgres } from '../tests/helpers/cluster-services.js';
import { fmt, median } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const GROUP = Number(process.env.BENCH_GROUP ?? 50);
const COMMITTERS = Number(process.env.BENCH_COMMITTERS ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const CONTEXT = {
  templateId: 'tmpl_product_promo',
  ratio: 'square',
  format: 'png' as const,
  apiKeyId: 'key_bench',
};

/** Rows one worker takes at a time, as a chunk job `{ batchId, from, to }` would give it. */
const CHUNK = 500;

async function createRunningBatch(data: CoreData, rows: number): Promise<string> {
  await data.ledger.grant(rows);
  const id = data.batches.newId();
  const records = Array.from({ length: rows }, (_, i) => ({
    rowIndex: i,
    line: i + 2,
    record: { sku: `SKU-${i}`, headline: `Product ${i}`, price: i * 1000 },
    fileName: `sku-${i}.png`,
  }));
  await data.commands.createBatch({
    batch: {
      id,
      templateId: 'tmpl_product_promo',
      templateSnapshot: { id: 'tmpl_product_promo' },
      templateVersion: null,
      assetsDir: '/templates/tmpl_product_promo',
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
      today: new Date().toISOString().slice(0, 10),
      status: 'running',
      total: rows,
      rejectedReason: null,
      apiKeyId: 'key_bench',
      createdAt: new Date().toISOString(),
    },
    records,
  });
  return id;
}

/**
 * Committers take chunks in turn, read the chunk's pending rows, and commit them 50 at a time.
 * With several processes, process `part` of `parts` takes every parts-th chunk.
 */
async function commitAll(
  data: CoreData,
  batchId: string,
  rows: number,
  part = 0,
  parts = 1,
): Promise<number> {
  let nextChunk = part * CHUNK;
  let committed = 0;
  const context = { ...CONTEXT, batchId };
  const worker = async (): Promise<void> => {
    for (;;) {
      const from = nextChunk;
      nextChunk += CHUNK * parts;
      if (from >= rows) return;
      const pending = await data.batches.pendingInRange(batchId, from, from + CHUNK);
      for (let i = 0; i < pending.length; i += GROUP) {
        const outcomes: RowOutcome[] = pending.slice(i, i + GROUP).map((row) => ({
          ok: true,
          rowIndex: row.rowIndex,
          renderId: row.renderId,
          outputKey: `batches/${batchId}/${row.rowIndex}.png`,
          bytes: 250_000,
        }));
        // Awaited first: `committed += await …` would add to a stale total read before the wait.
        const changed = await data.commands.commitRows(context, outcomes);
        committed += changed;
      }
    }
  };
  await Promise.all(Array.from({ length: COMMITTERS }, worker));
  return committed;
}

/** CPU seconds used so far by a PostgreSQL server: the postmaster and its children (backends). */
function serverCpuSeconds(postmasterPid: number): number {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const children = fs
    .readFileSync(`/proc/${postmasterPid}/task/${postmasterPid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  let total = 0;
  for (const pid of [postmasterPid, ...children]) {
    try {
      // utime and stime, fields 14 and 15, counted after the parenthesised command name.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total / ticks;
}

async function measure(url: string, pool: pg.Pool, postmasterPid?: number): Promise<void> {
  await migratePostgres(pool, POSTGRES_MIGRATIONS);
  const data = postgresCoreData(pool);
  const rates: number[] = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const batchId = await createRunningBatch(data, ROWS);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const serverBefore = postmasterPid ? serverCpuSeconds(postmasterPid) : 0;
    let seconds = NaN;
    let serverCpu = NaN;
    // Read before the committer processes end: their server backends' CPU ends with them.
    const stopClock = (): void => {
      seconds = (performance.now() - started) / 1000;
      if (postmasterPid) serverCpu = serverCpuSeconds(postmasterPid) - serverBefore;
    };
    const committed =
      PROCESSES > 1
        ? await commitInProcesses(url, batchId, stopClock)
        : await commitAll(data, batchId, ROWS).finally(stopClock);
    const cpu = process.cpuUsage(cpuBefore);
    const clientCpu = (cpu.user + cpu.system) / 1e6;
    if (committed !== ROWS) throw new Error(`Committed ${committed} of ${ROWS} rows.`);
    const report = await data.ledger.verifyInvariant();
    if (!report.ok) throw new Error(`The ledger does not add up: ${report.problems.join('; ')}`);
    const rate = ROWS / seconds;
    console.log(
      `${run === 0 ? 'warm-up' : `run ${run}`}: ${ROWS} rows in ${fmt(seconds, 2)} s = ` +
        `${fmt(rate, 0)} rows/s; CPU: this process ${fmt(clientCpu, 2)} s, PostgreSQL ` +
        `${fmt(serverCpu, 2)} s; load average ${fmt(os.loadavg()[0] ?? NaN, 1)}`,
    );
    if (run > 0) rates.push(rate);
  }
  console.log(
    `commitRows, groups of ${GROUP}, ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'} × ` +
      `${COMMITTERS} committers: median ${fmt(median(rates), 0)} rows/s ` +
      `(min ${fmt(Math.min(...rates), 0)}, max ${fmt(Math.max(...rates), 0)}) over ${RUNS} runs`,
  );
}

/**
 * Commits the batch from BENCH_PROCESSES processes, as separate worker machines would (each
 * with its own pool; commits of one process can merge, those of different processes cannot).
 * Children start and connect first; the clock runs from "go" to the last one's "done".
 */
async function commitInProcesses(
  url: string,
  batchId: string,
  stopClock: () => void,
): Promise<number> {
  const children = Array.from({ length: PROCESSES }, (_, part) =>
    spawn(process.execPath, [...process.execArgv, process.argv[1] ?? ''], {
      env: {
        ...process.env,
        BENCH_CHILD: `${part}`,
        BENCH_CHILD_URL: url,
        BENCH_CHILD_BATCH: batchId,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = children.map((child) => {
    const reader = readline.createInterface({ input: child.stdout });
    const iterator = reader[Symbol.asyncIterator]();
    return async (): Promise<string> => (await iterator.next()).value ?? '';
  });
  for (const next of lines) {
    const line = await next();
    if (line !== 'ready') throw new Error(`A committer process said "${line}" instead of ready.`);
  }
  for (const child of children) child.stdin.write('go\n');
  const done = await Promise.all(lines.map((next) => next()));
  stopClock();
  const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children) child.stdin.end('exit\n');
  await Promise.all(exited);
  return done.reduce((sum, line) => sum + Number(/^done (\d+)$/.exec(line)?.[1] ?? NaN), 0);
}

/** One committer process: connect, say ready, wait for go, commit its share, say done. */
async function child(part: number): Promise<void> {
  const pool = openPostgres(process.env.BENCH_CHILD_URL ?? '', { max: COMMITTERS + 1 });
  const data = postgresCoreData(pool);
  try {
    // A fresh server session loads its catalog caches and plans on first use: do that before the
    // clock starts, with a commit for a batch that does not exist (it changes nothing).
    const batchId = process.env.BENCH_CHILD_BATCH ?? '';
    await data.batches.pendingInRange(batchId, 0, 1);
    await data.commands.commitRows({ ...CONTEXT, batchId: 'bat_warm_up' }, [
      { ok: true, rowIndex: 0, renderId: 'rnd_warm_up', outputKey: 'none', bytes: 0 },
    ]);
    const reader = readline.createInterface({ input: process.stdin });
    const lines = reader[Symbol.asyncIterator]();
    process.stdout.write('ready\n');
    await lines.next();
    process.stdout.write(`done ${await commitAll(data, batchId, ROWS, part, PROCESSES)}\n`);
    // Connected until the parent has read the server's CPU time.
    await lines.next();
    reader.close();
  } finally {
    await data.close();
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_CHILD !== undefined) {
    await child(Number(process.env.BENCH_CHILD));
    return;
  }
  const given = process.env.BENCH_POSTGRES_URL;
  if (given) {
    const pool = openPostgres(given, { max: COMMITTERS + 2 });
    try {
      await measure(given, pool);
    } finally {
      await closePostgres(pool);
    }
    return;
  }
  const scope = new ServiceScope();
  try {
    const server = await startPostgres(scope);
    console.log(`PostgreSQL on port ${server.port} (fsync on), started for this run`);
    const pool = openPostgres(server.url, { max: COMMITTERS + 2 });
    try {
      await measure(server.url, pool, server.pid);
    } finally {
      await closePostgres(pool);
    }
  } finally {
    await scope.stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
