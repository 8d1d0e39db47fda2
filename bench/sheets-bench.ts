/**
 * `npm run bench:sheets`: name badges 4-up on A4 with duplex backs, through the batch API of a
 * headless server (a child process, so its peak RSS is its own), against the issue's bars:
 *
 *   1. 1,000 badge rows → 250 A4 sheets (500 PDF pages: fronts and mirrored backs) in ≤ 30 s,
 *      peak RSS ≤ 600 MB.
 *   2. Memory flat as the batch grows (parts of at most 100 sheets): the server's RSS sampled
 *      while a bigger batch draws its parts, its peak against the 1,000-row run's.
 *
 * Every row has its own name and QR code; the logo and the photo are the template's own (one
 * decode and one embedded image per part).
 *
 *   BENCH_BIG_ROWS=10000 npm run bench:sheets   the growth run's rows (default 4,000 to stay
 *                                               within two minutes on a loaded 2-core machine)
 *   BENCH_WORKERS=2                             render threads (default: the machine's cores)
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServe } from '../tests/helpers/spawn-serve.js';
import { fmt, processRssMiB, stopProcess } from './stats.js';
import { runBench } from './run-bench.js';

const KEY = 'rdk_sheets_bench_key_0123456789';
const BIG_ROWS = Number(process.env.BENCH_BIG_ROWS ?? 4_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? os.availableParallelism());

interface Served {
  child: ChildProcess;
  url: string;
  dataDir: string;
}

const checks: boolean[] = [];
function check(name: string, value: string, target: string, pass: boolean): void {
  checks.push(pass);
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}: ${value} (target ${target})`);
}

function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function serve(): Promise<Served> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-sheets-bench-'));
  const { child, url } = await spawnServe(
    dataDir,
    {
      RENDER_DESK_API_KEY: KEY,
      RENDER_DESK_CREDITS: '1000000',
      RENDER_DESK_RATE_LIMIT: '1000000',
    },
    WORKERS,
  );
  return { child, url, dataDir };
}

async function stop(server: Served): Promise<void> {
  await stopProcess(server.child);
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

interface BatchView {
  id: string;
  status: string;
}

async function api(server: Served, pathname: string, body?: unknown): Promise<BatchView> {
  const res = await fetch(server.url + pathname, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await res.json();
  if (res.status >= 300)
    throw new Error(`${pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json as BatchView;
}

function badgeRows(count: number): Record<string, unknown>[] {
  const first = ['Linh', 'Minh', 'Anh', 'Quân', 'Hạnh', 'Tuấn', 'Ngọc', 'Bảo'];
  const last = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Võ'];
  return Array.from({ length: count }, (_, i) => ({
    eventName: 'ProductConf 2026 · Hà Nội',
    firstName: `${first[i % first.length]} ${i + 1}`,
    lastName: last[i % last.length],
    role: 'Senior Product Designer',
    company: 'Acme Robotics',
    attendeeType: i % 5 === 0 ? 'speaker' : 'attendee',
    photo: 'asset:attendee.jpg',
    profileUrl: `https://productconf.example/p/${i + 1}`,
  }));
}

/** Runs one batch to its end; RSS sampled every 250 ms meanwhile. */
async function runBatch(
  server: Served,
  rows: number,
): Promise<{ seconds: number; batch: BatchView; samples: number[] }> {
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(processRssMiB(server.child.pid!)), 250);
  const started = performance.now();
  const created = await api(server, '/v1/render-batches', {
    templateId: 'tmpl_name_badge',
    target: 'badge',
    format: 'pdf',
    sourceType: 'json-array',
    source: { records: badgeRows(rows) },
    sheets: { preset: 'a6-on-a4', duplex: 'long-edge' },
  });
  let batch: BatchView;
  for (;;) {
    batch = await api(server, `/v1/render-batches/${created.id}`);
    if (!['queued', 'running'].includes(batch.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { seconds, batch, samples };
}

function sheetFiles(server: Served, batchId: string): { name: string; bytes: number }[] {
  const dir = path.join(server.dataDir, 'outputs', 'batches', batchId);
  return fs
    .readdirSync(dir)
    .filter((name) => /^sheets-\d+\.pdf$/.test(name))
    .map((name) => ({ name, bytes: fs.statSync(path.join(dir, name)).size }));
}

async function main(): Promise<void> {
  console.log(
    `sheets bench: ${WORKERS} render threads, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}, Node ${process.version}\n`,
  );

  const small = await serve();
  let smallPeak = 0;
  try {
    const run = await runBatch(small, 1_000);
    smallPeak = peakRssMiB(small.child.pid!);
    const parts = sheetFiles(small, run.batch.id);
    console.log(
      `1,000 rows: ${fmt(run.seconds)} s, status ${run.batch.status}, ${parts.length} part(s) ` +
        `${parts.map((p) => `${p.name} ${fmt(p.bytes / 1024 / 1024, 2)} MiB`).join(', ')}, peak RSS ${fmt(smallPeak)} MiB`,
    );
    check(
      '1,000 badge rows → 250 duplex A4 sheets',
      `${fmt(run.seconds)} s`,
      '≤ 30 s',
      run.seconds <= 30 && run.batch.status === 'succeeded',
    );
    check('peak RSS of the server', `${fmt(smallPeak)} MiB`, '≤ 600 MB', smallPeak <= 600);
  } finally {
    await stop(small);
  }

  const big = await serve();
  try {
    const run = await runBatch(big, BIG_ROWS);
    const peak = peakRssMiB(big.child.pid!);
    const parts = sheetFiles(big, run.batch.id);
    const quarter = Math.floor(run.samples.length / 4);
    const early = Math.max(...run.samples.slice(0, quarter));
    const late = Math.max(...run.samples.slice(-quarter));
    console.log(
      `${BIG_ROWS} rows: ${fmt(run.seconds)} s, status ${run.batch.status}, ${parts.length} parts, ` +
        `RSS highest in the first quarter ${fmt(early)} MiB, in the last ${fmt(late)} MiB, peak ${fmt(peak)} MiB`,
    );
    check(
      `memory flat from 1,000 to ${BIG_ROWS} rows`,
      `peak ${fmt(peak)} MiB vs ${fmt(smallPeak)} MiB (+${fmt(((peak - smallPeak) / smallPeak) * 100)} %)`,
      '≤ 600 MB and within 25 % of the 1,000-row run',
      run.batch.status === 'succeeded' && peak <= 600 && peak <= smallPeak * 1.25,
    );
  } finally {
    await stop(big);
  }
  const failed = checks.filter((pass) => !pass).length;
  console.log(`\n${checks.length - failed}/${checks.length} bars met`);
  if (failed > 0) process.exitCode = 1;
}

runBench(main);
