/**
 * `npm run bench:cluster-chaos`: the bar "a cluster started as an orchestrator starts it (stdin
 * at /dev/null), 1 API + 2 workers, a 600-row batch with a worker SIGKILLed and Redis restarted:
 * every row once, credits exact, the bundle byte-identical to embedded", measured in one run.
 *
 * Real services are started here on random loopback ports and stopped at the end: PostgreSQL,
 * Redis (append-only file, noeviction) and s3rver (the store). The nodes run `main/start.ts
 * --headless --role api|worker`, the program `npm run serve -- --role …` runs (no supervisor, no
 * stdin watchdog), each with /dev/null opened as its standard input and in a process group of
 * its own, so that a SIGKILL takes the node down whole, as a container or cgroup kill does.
 *
 * Each run (BENCH_REDIS=aof by default; `aof,empty` adds a second run whose Redis comes back
 * with nothing) renders BENCH_ROWS (600) rows of tmpl_quote_card, each with its own quote:
 *   - at a quarter of the rows done, one worker node is SIGKILLed and a replacement started;
 *   - at half, Redis is SIGKILLed and started again on the same port (from its AOF, or empty).
 * Then it checks, and prints: every row exactly once in the manifest and succeeded; one debit
 * per row in the ledger and nothing held; the account's totals equal to the ledger's sums and
 * the balance down by exactly the rows; the bundle with manifest.csv byte-identical to the one
 * an embedded server (main/serve.ts, its own data folder) makes of the same rows.
 * At the end: every node still running, each of its processes with /dev/null as stdin, and each
 * stopping on SIGTERM with exit code 0 within STOP_BOUND_MS, no process of its group left.
 *
 * Chunk locks are the product's default (30 s) unless BENCH_LOCK_MS says otherwise: a killed
 * worker's chunk is rendered again once its lock expires, which the wall time includes.
 * Exits 1 naming each failed check.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildCompiledCore, currentBuild, useBuild } from '../bin/compiled-core.mjs';
import {
  callNode,
  startClusterNode,
  startInitialisedCluster,
  type ClusterEnvironment,
  type ClusterNodeProcess,
  type OwnClusterServices,
} from '../tests/helpers/cluster-node.js';
import { ServiceScope } from '../tests/helpers/cluster-services.js';
import { spawnServe, type SpawnedServe } from '../tests/helpers/spawn-serve.js';
import { fmt, stopProcess } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 600);
const LOCK_MS = Number(process.env.BENCH_LOCK_MS ?? 30_000);
const REDIS_MODES = (process.env.BENCH_REDIS ?? 'aof').split(',').map((mode) => {
  if (mode !== 'aof' && mode !== 'empty') throw new Error(`BENCH_REDIS: aof or empty, not ${mode}`);
  return mode;
});
/**
 * How nodes are started: 'npm-serve' runs main/start.ts --headless under Node, the program
 * `npm run serve` runs; 'npm-run-serve' runs `npm run serve -- …` itself, npm and its shell
 * included.
 */
const ENTRY = ((entry: string): 'npm-serve' | 'npm-run-serve' => {
  if (entry === 'npm-serve' || entry === 'npm-run-serve') return entry;
  throw new Error(`BENCH_ENTRY: npm-serve or npm-run-serve, not ${entry}`);
})(process.env.BENCH_ENTRY ?? 'npm-serve');
const TEMPLATE = 'tmpl_quote_card';
/** How long a node may take to stop on SIGTERM. */
const STOP_BOUND_MS = 30_000;
/** How long one batch may take before the run gives up on it. */
const BATCH_TIMEOUT_MS = 15 * 60_000;

type Json = Record<string, unknown>;
type RedisMode = 'aof' | 'empty';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const checks: Check[] = [];

function check(name: string, ok: boolean, detail: string): void {
  checks.push({ name, ok, detail });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** The pids of every process in process group `pgid` (Linux /proc). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name (which may hold spaces): state, ppid, pgrp, …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) members.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return members;
}

/** What a process runs: its command line, shortened. */
function commandOf(pid: number): string {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv.map((arg) => (arg.length > 40 ? `…${arg.slice(-30)}` : arg)).join(' ');
  } catch {
    return '?';
  }
}

/** True for a Node process (start.ts, the server, npm), false for a helper (esbuild, sh). */
function isNode(pid: number): boolean {
  try {
    return fs.realpathSync(`/proc/${pid}/exe`) === fs.realpathSync(process.execPath);
  } catch {
    return false;
  }
}

function stdinOf(pid: number): string {
  try {
    return fs.readlinkSync(`/proc/${pid}/fd/0`);
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** Makes sure the compiled core the embedded reference server runs is current. */
async function compiledCore(): Promise<void> {
  let entry = currentBuild();
  if (!entry || !useBuild(entry)) {
    console.log('compiling the core for the embedded reference server…');
    entry = await buildCompiledCore();
    if (!useBuild(entry)) throw new Error(`the compiled core at ${entry} went away`);
  }
}

class Cluster {
  readonly workers: ClusterNodeProcess[] = [];
  /** Every node ever started, for cleanup (a killed one's group too). */
  readonly started: ClusterNodeProcess[] = [];
  api!: ClusterNodeProcess;
  admin!: pg.Pool;

  constructor(readonly env: ClusterEnvironment<OwnClusterServices>) {}

  async node(role: 'api' | 'worker'): Promise<ClusterNodeProcess> {
    const node = await startClusterNode(this.env, role, {
      entry: ENTRY,
      stdin: '/dev/null',
      processGroup: true,
    });
    this.started.push(node);
    return node;
  }

  call(pathname: string, init?: RequestInit & { json?: unknown }) {
    return callNode(this.env, this.api, pathname, init);
  }

  async json(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Json> {
    const res = await this.call(pathname, init);
    const body = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${pathname} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  }
}

const terminal = (status: unknown) =>
  ['succeeded', 'partial', 'failed', 'degraded', 'cancelled'].includes(String(status));

async function manifestOf(cluster: Cluster, id: string): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = '0';
  while (cursor !== null) {
    const page = await cluster.json(`/v1/render-batches/${id}/renders?cursor=${cursor}&limit=1000`);
    rows.push(...(page.rows as Json[]));
    cursor = (page.nextCursor as string | null) ?? null;
  }
  return rows;
}

async function downloadBundle(
  base: string,
  key: string,
  id: string,
): Promise<{ bytes: Buffer; status: number }> {
  const linkRes = await fetch(`${base}/v1/render-batches/${id}/bundle?manifest=true`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const link = (await linkRes.json()) as { url?: string; parts?: unknown };
  if (!link.url) throw new Error(`no bundle link: ${JSON.stringify(link)}`);
  const res = await fetch(link.url);
  return { bytes: Buffer.from(await res.arrayBuffer()), status: res.status };
}

/** One batch with a worker SIGKILLed at 1/4 and Redis killed and restarted at 1/2. */
async function chaosRun(
  cluster: Cluster,
  embedded: SpawnedServe,
  embeddedKey: string,
  mode: RedisMode,
  sampleRow: Json,
): Promise<void> {
  const { env } = cluster;
  const redis = env.redis;
  console.log(
    `\nrun "${mode}": ${ROWS} rows of ${TEMPLATE}, Redis restarted ${mode === 'aof' ? 'from its AOF' : 'empty'}`,
  );
  const records = Array.from({ length: ROWS }, (_, i) => ({
    ...sampleRow,
    quote: `Chaos ${mode} ${i}: what is measured, improves.`,
  }));
  const accountBefore = await cluster.json('/v1/account');

  const started = Date.now();
  const created = await cluster.call('/v1/render-batches', {
    method: 'POST',
    json: { templateId: TEMPLATE, sourceType: 'json-array', source: { records } },
  });
  const createdBody = (await created.json()) as Json;
  if (created.status !== 202)
    throw new Error(`the batch was refused (${created.status}): ${JSON.stringify(createdBody)}`);
  const id = String(createdBody.id);

  const events: string[] = [];
  const at = () => `${fmt((Date.now() - started) / 1000)} s`;
  let workerKilled = false;
  let redisRestarted = false;
  let batch: Json = {};
  let pollErrors = 0;
  for (;;) {
    try {
      batch = await cluster.json(`/v1/render-batches/${id}`);
    } catch (error) {
      pollErrors += 1;
      if (pollErrors % 20 === 1)
        console.log(`  (poll failed at ${at()}: ${(error as Error).message})`);
      await sleep(250);
      continue;
    }
    const done = Number(batch.succeeded ?? 0) + Number(batch.failed ?? 0);
    if (terminal(batch.status)) break;
    if (Date.now() - started > BATCH_TIMEOUT_MS)
      throw new Error(
        `batch ${id} is ${String(batch.status)} (${done}/${ROWS}) after ${BATCH_TIMEOUT_MS} ms`,
      );
    if (!workerKilled && done >= ROWS / 4) {
      workerKilled = true;
      const victim = cluster.workers.shift()!;
      victim.signal('SIGKILL');
      events.push(`worker (pid ${victim.child.pid}) SIGKILLed at ${done}/${ROWS} rows, ${at()}`);
      console.log(`  ${events.at(-1)}`);
      const replacement = await cluster.node('worker');
      cluster.workers.push(replacement);
      events.push(`replacement worker (pid ${replacement.child.pid}) started at ${at()}`);
      console.log(`  ${events.at(-1)}`);
      continue;
    }
    if (!redisRestarted && done >= ROWS / 2) {
      redisRestarted = true;
      const killed = redis.pid;
      redis.kill('SIGKILL');
      events.push(`Redis (pid ${killed}) SIGKILLed at ${done}/${ROWS} rows, ${at()}`);
      console.log(`  ${events.at(-1)}`);
      await redis.restart({ empty: mode === 'empty' });
      events.push(
        `Redis restarted ${mode === 'aof' ? 'from its AOF' : 'empty'} (pid ${redis.pid}) at ${at()}`,
      );
      console.log(`  ${events.at(-1)}`);
      continue;
    }
    await sleep(200);
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `  batch ${id} ${String(batch.status)}: ${String(batch.succeeded)} succeeded, ${String(batch.failed)} failed of ${ROWS} in ${fmt(seconds)} s = ${fmt(ROWS / seconds)} rows/s (wall time from POST to the terminal status)`,
  );
  check(
    `[${mode}] worker SIGKILLed and Redis restarted mid-batch`,
    workerKilled && redisRestarted,
    events.join('; ') || 'the batch ended before the faults',
  );
  check(
    `[${mode}] batch succeeded`,
    batch.status === 'succeeded' && batch.succeeded === ROWS,
    `status ${String(batch.status)}, ${String(batch.succeeded)}/${ROWS} succeeded`,
  );

  // Every row exactly once in the manifest, each succeeded.
  const listed = await manifestOf(cluster, id);
  const seen = new Map<number, number>();
  for (const row of listed)
    seen.set(Number(row.rowIndex), (seen.get(Number(row.rowIndex)) ?? 0) + 1);
  const missing = Array.from({ length: ROWS }, (_, i) => i).filter((i) => !seen.has(i));
  const repeated = [...seen].filter(([, n]) => n > 1).map(([i]) => i);
  const outside = [...seen.keys()].filter((i) => !(i >= 0 && i < ROWS));
  const notSucceeded = listed.filter((row) => row.status !== 'succeeded');
  check(
    `[${mode}] every row exactly once in the manifest, all succeeded`,
    listed.length === ROWS &&
      missing.length === 0 &&
      repeated.length === 0 &&
      outside.length === 0 &&
      notSucceeded.length === 0,
    `${listed.length} entries, rowIndex 0..${ROWS - 1}: ${missing.length} missing, ${repeated.length} repeated, ${outside.length} outside, ${notSucceeded.length} not succeeded`,
  );

  // The ledger: one debit per row, nothing held.
  const debits = await cluster.admin.query<{ n: string; distinct_rows: string; amount: string }>(
    `SELECT COUNT(*) AS n, COUNT(DISTINCT row_index) AS distinct_rows, COALESCE(SUM(amount), 0) AS amount
     FROM ledger WHERE kind = 'debit' AND batch_id = $1`,
    [id],
  );
  const debit = debits.rows[0]!;
  check(
    `[${mode}] one debit per row`,
    Number(debit.n) === ROWS && Number(debit.distinct_rows) === ROWS,
    `COUNT ${debit.n}, COUNT DISTINCT row_index ${debit.distinct_rows}, SUM ${debit.amount} (expected ${ROWS})`,
  );
  const held = await cluster.admin.query<{ held: string }>(
    `SELECT COALESCE(SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount END), 0) AS held
     FROM ledger WHERE batch_id = $1`,
    [id],
  );
  const holds = await cluster.admin.query<{ held: string }>(
    'SELECT COALESCE(SUM(held), 0) AS held FROM batch_holds WHERE batch_id = $1',
    [id],
  );
  const totals = await cluster.admin.query<{ granted: string; debited: string; held: string }>(
    'SELECT granted::text, debited::text, held::text FROM account WHERE id = 1',
  );
  const sums = await cluster.admin.query<{ granted: string; debited: string; held: string }>(
    `SELECT COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0)::text AS granted,
            COALESCE(SUM(CASE WHEN kind = 'debit' THEN amount END), 0)::text AS debited,
            COALESCE(SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount END), 0)::text AS held
     FROM ledger`,
  );
  const total = totals.rows[0]!;
  const sum = sums.rows[0]!;
  check(
    `[${mode}] nothing held`,
    Number(held.rows[0]!.held) === 0 &&
      Number(holds.rows[0]!.held) === 0 &&
      Number(total.held) === 0,
    `batch's holds − releases ${held.rows[0]!.held}, batch_holds ${holds.rows[0]!.held}, account held ${total.held}`,
  );
  check(
    `[${mode}] account totals = ledger sums`,
    total.granted === sum.granted && total.debited === sum.debited && total.held === sum.held,
    `account granted/debited/held ${total.granted}/${total.debited}/${total.held}, ledger ${sum.granted}/${sum.debited}/${sum.held}`,
  );
  const accountAfter = await cluster.json('/v1/account');
  const spent = Number(accountBefore.balance) - Number(accountAfter.balance);
  check(
    `[${mode}] balance exact`,
    spent === ROWS &&
      Number(accountAfter.heldCredits) === 0 &&
      Number(accountAfter.balance) ===
        Number(total.granted) - Number(total.debited) - Number(total.held),
    `${String(accountBefore.balance)} → ${String(accountAfter.balance)} (−${spent}, expected −${ROWS}), held ${String(accountAfter.heldCredits)}, granted − debited − held = ${Number(total.granted) - Number(total.debited) - Number(total.held)}`,
  );

  // The same records in embedded mode: the bundle with manifest.csv, byte for byte.
  const embeddedStarted = Date.now();
  const localRes = await fetch(`${embedded.url}/v1/render-batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${embeddedKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ templateId: TEMPLATE, sourceType: 'json-array', source: { records } }),
  });
  const local = (await localRes.json()) as Json;
  if (localRes.status !== 202)
    throw new Error(`embedded refused the batch: ${JSON.stringify(local)}`);
  let localBatch: Json;
  for (;;) {
    localBatch = (await (
      await fetch(`${embedded.url}/v1/render-batches/${String(local.id)}`, {
        headers: { authorization: `Bearer ${embeddedKey}` },
      })
    ).json()) as Json;
    if (terminal(localBatch.status)) break;
    await sleep(250);
  }
  console.log(
    `  embedded reference: ${String(localBatch.status)} in ${fmt((Date.now() - embeddedStarted) / 1000)} s (not timed against the bar)`,
  );
  const clusterZip = await downloadBundle(cluster.api.url!, env.apiKey, id);
  const embeddedZip = await downloadBundle(embedded.url, embeddedKey, String(local.id));
  check(
    `[${mode}] bundle with manifest byte-identical to embedded`,
    clusterZip.status === 200 &&
      embeddedZip.status === 200 &&
      clusterZip.bytes.equals(embeddedZip.bytes),
    `cluster ${clusterZip.status} ${clusterZip.bytes.length} bytes sha256 ${sha(clusterZip.bytes)}…, embedded ${embeddedZip.status} ${embeddedZip.bytes.length} bytes sha256 ${sha(embeddedZip.bytes)}…`,
  );
}

/** Still running, stdin at /dev/null in every process; then SIGTERM → exit 0 within the bound. */
async function checkNodesAndStop(cluster: Cluster): Promise<void> {
  console.log('\nnodes at the end');
  const nodes = [cluster.api, ...cluster.workers];
  for (const node of nodes) {
    const pid = node.child.pid!;
    // tsx's esbuild service (started when its cache is cold) reads a pipe from its parent.
    const members = groupMembers(pid).filter(isNode);
    const inputs = members.map(
      (member) => `${member} [${commandOf(member)}] stdin ${stdinOf(member)}`,
    );
    const running = node.child.exitCode === null && node.child.signalCode === null;
    check(
      `${node.role} node ${pid} still running, stdin at /dev/null`,
      running &&
        members.length >= 2 &&
        members.every((member) => stdinOf(member) === '/dev/null') &&
        !/Received SIG/.test(node.output()),
      `${running ? 'running' : `exited (${String(node.child.exitCode ?? node.child.signalCode)})`}, processes ${inputs.join(', ')}`,
    );
  }
  for (const node of nodes) {
    const pid = node.child.pid!;
    const started = Date.now();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve) => {
        if (node.child.exitCode !== null || node.child.signalCode !== null)
          resolve({ code: node.child.exitCode, signal: node.child.signalCode });
        else node.child.once('exit', (code, signal) => resolve({ code, signal }));
      },
    );
    node.child.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(STOP_BOUND_MS).then(() => null)]);
    const ms = Date.now() - started;
    // The server it started exits before it does; give stragglers a moment all the same.
    let left = groupMembers(pid);
    for (let i = 0; i < 20 && left.length > 0; i += 1) {
      await sleep(100);
      left = groupMembers(pid);
    }
    check(
      `${node.role} node ${pid} stops on SIGTERM with exit code 0`,
      result !== null && result.code === 0 && left.length === 0,
      result === null
        ? `still running after ${STOP_BOUND_MS} ms`
        : `exit code ${String(result.code)}${result.signal ? ` (signal ${result.signal})` : ''} in ${ms} ms (bound ${STOP_BOUND_MS} ms), ${left.length} process(es) of its group left`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `cluster chaos: 1 API + 2 worker nodes (1 render thread each) started ${ENTRY === 'npm-serve' ? 'as `node --import tsx main/start.ts --headless --role …` (what `npm run serve -- --role …` runs)' : 'with `npm run serve -- --role …`'}, stdin at /dev/null, each in its own process group; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => fmt(l))
      .join(' ')}; chunk lock ${LOCK_MS} ms`,
  );
  await compiledCore();
  const scope = new ServiceScope();
  let cluster: Cluster | undefined;
  let embedded: SpawnedServe | undefined;
  const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-chaos-embedded-'));
  const killGroups = () => {
    for (const node of cluster?.started ?? []) {
      try {
        process.kill(-node.child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  };
  process.once('exit', killGroups);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.error(`interrupted (${signal})`);
      process.exit(130);
    });
  try {
    const servicesStarted = Date.now();
    const env = await startInitialisedCluster(scope, { lockMs: LOCK_MS });
    console.log(
      `services: PostgreSQL ${env.postgres.url.replace(/\/\/[^@]*@/, '//')}, Redis ${env.redis.url} (AOF, noeviction), s3rver ${env.s3.endpoint}; initialised in ${fmt((Date.now() - servicesStarted) / 1000)} s`,
    );
    cluster = new Cluster(env);
    cluster.admin = new pg.Pool({ connectionString: env.postgres.adminUrl, max: 2 });
    cluster.admin.on('error', () => undefined);
    const nodesStarted = Date.now();
    cluster.api = await cluster.node('api');
    cluster.workers.push(...(await Promise.all([cluster.node('worker'), cluster.node('worker')])));
    console.log(
      `nodes started in ${fmt((Date.now() - nodesStarted) / 1000)} s (API at ${cluster.api.url})`,
    );
    const embeddedKey = `rdk_chaos_embedded_${crypto.randomBytes(8).toString('hex')}`;
    embedded = await spawnServe(
      embeddedDir,
      {
        RENDER_DESK_API_KEY: embeddedKey,
        RENDER_DESK_CREDITS: '100000',
        RENDER_DESK_RATE_LIMIT: '100000',
      },
      1,
    );
    const fields = await cluster.json(`/v1/render-batches/template-fields?templateId=${TEMPLATE}`);
    const sampleRow = fields.sampleRow as Json;
    for (const mode of REDIS_MODES) await chaosRun(cluster, embedded, embeddedKey, mode, sampleRow);
    await checkNodesAndStop(cluster);
  } finally {
    await Promise.allSettled((cluster?.started ?? []).map((node) => node.stop()));
    if (embedded) await stopProcess(embedded.child);
    fs.rmSync(embeddedDir, { recursive: true, force: true });
    await cluster?.admin?.end().catch(() => undefined);
    await scope.stopAll().catch((error: unknown) => {
      // A service that died on its own is a finding too.
      check('services stopped cleanly', false, (error as Error).message);
    });
  }
  const failed = checks.filter((c) => !c.ok);
  console.log(
    failed.length === 0
      ? `\nall ${checks.length} checks passed`
      : `\nFAILED ${failed.length} of ${checks.length} checks:\n${failed.map((c) => `  - ${c.name}: ${c.detail}`).join('\n')}`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(
      `cluster chaos bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
