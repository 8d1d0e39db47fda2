/**
 * `npm run bench:verify`: what reading every code back from the pixels (`verifyCodes`) adds to
 * a batch, against the issue's bar: ≤ 10 % of the batch's time on a 1,000-row badge batch
 * (tmpl_name_badge, square PNG, a different QR code on every row).
 *
 *   1. The bar: the same 1,000 rows as batches through a served core (2 render threads), with
 *      and without verifyCodes, taking turns (plain, verified, verified, plain, …) so a busy
 *      machine slows both alike; each batch's time is its record's createdAt → finishedAt, and
 *      the server's CPU time over the batch (user + system, all its threads), which other work
 *      on a shared machine disturbs less than the wall clock.
 *   2. Where it goes: badge rows drawn and encoded in this thread, and each one's QR code read
 *      back from its canvas, timed apart (steadier than two noisy totals' difference).
 *
 *   3. PDF: the print badge as PDF in this thread, each row plain and verified in turn.
 *
 *   BENCH_ROWS=200 BENCH_PAIRS=1 npm run bench:verify   a smoke run
 *   BENCH_PARTS=pdf npm run bench:verify                 only the PDF part (also: batch, row)
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../main/app.js';
import { loadCatalog } from '../main/catalog/load-catalog.js';
import { createImageReferenceResolver } from '../main/engine/image-reference.js';
import { registerBundledFonts } from '../main/engine/fonts.js';
import { releaseCanvas } from '../main/engine/canvas-pool.js';
import { encodeCanvas } from '../main/engine/encode-image.js';
import { FONTS_DIR, renderJob } from '../main/engine/render-job.js';
import { renderTemplate } from '../main/engine/render-template.js';
import { unreadableOnPage } from '../main/engine/verify-job-codes.js';
import type { RenderPool } from '../main/render/render-pool.js';
import type { RenderJob } from '../main/render/render-protocol.js';
import { RenderService } from '../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../shared/brand-profile.js';
import { spawnServe } from '../tests/helpers/spawn-serve.js';
import { fmt, median, stopProcess } from './stats.js';
import { runBench } from './run-bench.js';

const KEY = 'rdk_verify_bench_key_0123456789';
const BADGE = 'tmpl_name_badge';
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const ENGINE_ROWS = 200;
const WARM_UP_ROWS = 40;
const BAR = 0.1;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'batch,row,pdf').split(','));

/** Row i of the badge batch: the sample badge with its own name and profile link. */
function badgeRow(sample: Record<string, unknown>, i: number): Record<string, unknown> {
  return {
    ...sample,
    firstName: `Guest ${i + 1}`,
    company: i % 2 ? 'Acme Robotics' : 'Công ty Cổ phần Sao Mai',
    profileUrl: `https://productconf.example/p/guest-${i + 1}-${(i * 7919).toString(36)}`,
  };
}

function csvOf(rows: Record<string, unknown>[]): Buffer {
  const fields = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => {
    const text = value === undefined || value === null ? '' : String(value);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [fields.join(','), ...rows.map((row) => fields.map((f) => cell(row[f])).join(','))];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** A process's CPU time so far, every thread's, user and system (Linux). */
function cpuSeconds(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

interface Served {
  child: ChildProcess;
  url: string;
  dataDir: string;
}

const api = (server: Served, pathname: string, init: RequestInit = {}) =>
  fetch(server.url + pathname, {
    ...init,
    headers: { authorization: `Bearer ${KEY}`, ...(init.headers ?? {}) },
  });

interface FinishedBatch {
  status: string;
  succeeded: number;
  failed: number;
  createdAt: string;
  finishedAt: string;
}

/** One batch of the upload's rows to its end; its seconds from its own record. */
async function timeBatch(server: Served, uploadId: string, verifyCodes: boolean, rows = ROWS) {
  const cpuBefore = cpuSeconds(server.child.pid!);
  const res = await api(server, '/v1/render-batches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      templateId: BADGE,
      target: 'square',
      sourceType: 'csv',
      source: { sourceRef: uploadId },
      ...(verifyCodes ? { verifyCodes: true } : {}),
    }),
  });
  const created = (await res.json()) as { id: string };
  if (res.status !== 202) throw new Error(`batch answered ${res.status}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const batch = (await (
      await api(server, `/v1/render-batches/${created.id}`)
    ).json()) as FinishedBatch;
    if (['queued', 'running'].includes(batch.status)) continue;
    if (batch.succeeded !== rows)
      throw new Error(`${verifyCodes ? 'verified' : 'plain'} batch: ${JSON.stringify(batch)}`);
    return {
      seconds: (Date.parse(batch.finishedAt) - Date.parse(batch.createdAt)) / 1000,
      cpu: cpuSeconds(server.child.pid!) - cpuBefore,
    };
  }
}

/**
 * One badge row at a time in this thread, each with its own link: the median time to draw and
 * encode it, and the median time to read its code back from the drawn canvas (the work
 * verifyCodes adds to a PNG row), timed apart so the machine's noise does not swamp it.
 */
async function rowCost(jobFor: (i: number) => RenderJob) {
  const render: number[] = [];
  const verify: number[] = [];
  for (let i = 0; i < ENGINE_ROWS + 5; i++) {
    const job = { ...jobFor(i), verifyCodes: true };
    const started = performance.now();
    const drawn = await renderTemplate(job);
    await encodeCanvas(drawn.canvas, { format: 'png' });
    const encoded = performance.now();
    const problems = await unreadableOnPage(job, drawn, null, 1);
    const read = performance.now();
    releaseCanvas(drawn.canvas);
    if (drawn.codes.length !== 1 || problems.length > 0) throw new Error(`row ${i}: no code read`);
    // The first rows warm up fonts, images and the reader.
    if (i < 5) continue;
    render.push(encoded - started);
    verify.push(read - encoded);
  }
  return { render: median(render), verify: median(verify) };
}

/**
 * The badge's print layout as a PDF (front with its photo and QR, back with its QR and
 * DataMatrix), each row made twice in turn, plain and with verifyCodes: the median share the
 * check adds to a PDF row (its codes are read from a raster of the layers around them).
 */
async function pdfRowCost(jobFor: (i: number) => RenderJob) {
  const plain: number[] = [];
  const verified: number[] = [];
  const plainCpu: number[] = [];
  const verifiedCpu: number[] = [];
  const pairShares: number[] = [];
  for (let i = 0; i < ENGINE_ROWS + 5; i++) {
    const job = jobFor(i);
    const order = i % 2 ? [true, false] : [false, true];
    const took = { plain: 0, verified: 0 };
    for (const verify of order) {
      const cpuBefore = threadCpuMs();
      const started = performance.now();
      const result = await renderJob(verify ? { ...job, verifyCodes: true } : job);
      const wall = performance.now() - started;
      const cpu = threadCpuMs() - cpuBefore;
      if (!result.ok) throw new Error(`row ${i}: ${result.message}`);
      if (i < 5) continue;
      (verify ? verified : plain).push(wall);
      (verify ? verifiedCpu : plainCpu).push(cpu);
      took[verify ? 'verified' : 'plain'] = wall;
    }
    if (i >= 5) pairShares.push((took.verified - took.plain) / took.plain);
  }
  return {
    plain: median(plain),
    verified: median(verified),
    pairShare: median(pairShares),
    plainCpu: median(plainCpu),
    verifiedCpu: median(verifiedCpu),
  };
}

/** This process's CPU time so far in ms (the engine runs on this thread; other work is idle). */
function threadCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Part 1: the same rows as batches through a served core, plain and verified in turn. */
async function batchPart(rows: Record<string, unknown>[]): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-verify-bench-'));
  const { child, url } = await spawnServe(
    dataDir,
    {
      RENDER_DESK_API_KEY: KEY,
      RENDER_DESK_CREDITS: '10000000',
      RENDER_DESK_RATE_LIMIT: '1000000',
    },
    2,
  );
  const server: Served = { child, url, dataDir };
  const plain: number[] = [];
  const verified: number[] = [];
  const plainCpu: number[] = [];
  const verifiedCpu: number[] = [];
  try {
    const upload = await api(server, '/v1/uploads?filename=badges.csv', {
      method: 'POST',
      body: csvOf(rows),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const { id } = (await upload.json()) as { id: string };
    console.log(`${ROWS} badge rows, ${PAIRS} pairs of batches, 2 render threads`);
    // Warm the threads (engine, fonts, the reader's WebAssembly) on a short batch of each kind.
    const warmUp = await api(server, '/v1/uploads?filename=warm-up.csv', {
      method: 'POST',
      body: csvOf(rows.slice(0, WARM_UP_ROWS)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const warmUpId = ((await warmUp.json()) as { id: string }).id;
    await timeBatch(server, warmUpId, false, WARM_UP_ROWS);
    await timeBatch(server, warmUpId, true, WARM_UP_ROWS);
    for (let pair = 0; pair < PAIRS; pair++) {
      // ABBA: neither kind always runs first.
      const order = pair % 2 ? [true, false] : [false, true];
      for (const verify of order) {
        const { seconds, cpu } = await timeBatch(server, id, verify);
        (verify ? verified : plain).push(seconds);
        (verify ? verifiedCpu : plainCpu).push(cpu);
        console.log(
          `  pair ${pair + 1}: ${verify ? 'verifyCodes' : 'plain      '} ${fmt(seconds, 2)} s, server CPU ${fmt(cpu, 2)} s`,
        );
      }
    }
  } finally {
    await stopProcess(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const base = median(plain);
  const added = median(verified) - base;
  const share = added / base;
  const pairShares = plain.map((p, i) => ((verified[i] ?? p) - p) / p);
  const cpuShare = (median(verifiedCpu) - median(plainCpu)) / median(plainCpu);
  console.log(
    `Batch: plain median ${fmt(base, 2)} s, verifyCodes median ${fmt(median(verified), 2)} s; per-pair added ${pairShares.map((s) => `${fmt(100 * s)} %`).join(', ')}`,
  );
  console.log(
    `${share <= BAR ? 'PASS' : 'FAIL'}  verifyCodes adds ${fmt(added, 2)} s, ${fmt(100 * share)} % of the batch's time (target ≤ ${100 * BAR} %)`,
  );
  console.log(
    `${cpuShare <= BAR ? 'PASS' : 'FAIL'}  verifyCodes adds ${fmt(100 * cpuShare)} % of the server's CPU time for the batch (median ${fmt(median(plainCpu), 2)} s → ${fmt(median(verifiedCpu), 2)} s; target ≤ ${100 * BAR} %)`,
  );
}

async function main(): Promise<void> {
  const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
  const entry = catalog.get(BADGE);
  if (!entry) throw new Error(`${BADGE} is missing`);
  const rows = Array.from({ length: ROWS }, (_, i) => badgeRow(entry.template.sampleValues, i));

  if (PARTS.has('batch')) await batchPart(rows);

  // Where the time goes: rows in this thread, the reading timed on its own.
  registerBundledFonts(FONTS_DIR);
  const renderer = new RenderService({
    templates: catalog,
    pool: undefined as unknown as RenderPool,
    brandProfile: () => EMPTY_BRAND_PROFILE,
    resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
  });
  if (PARTS.has('row')) {
    const row = await rowCost((i) =>
      renderer.prepare({
        templateId: BADGE,
        target: 'square',
        format: 'png',
        values: rows[i % ROWS]!,
      }),
    );
    console.log(
      `One row, one thread (median of ${ENGINE_ROWS}): drawn and encoded in ${fmt(row.render)} ms, its QR code read back in ${fmt(row.verify, 2)} ms (${fmt((100 * row.verify) / row.render)} %)`,
    );
  }
  if (!PARTS.has('pdf')) return;
  const pdf = await pdfRowCost((i) =>
    renderer.prepare({
      templateId: BADGE,
      target: 'badge',
      format: 'pdf',
      values: rows[i % ROWS]!,
    }),
  );
  const pdfShare = (pdf.verified - pdf.plain) / pdf.plain;
  console.log(
    `${pdfShare <= BAR ? 'PASS' : 'FAIL'}  print badge as PDF, one thread (median of ${ENGINE_ROWS}): ${fmt(pdf.plain)} ms plain, ${fmt(pdf.verified)} ms with verifyCodes (+${fmt(100 * pdfShare)} %; target ≤ ${100 * BAR} %)`,
  );
  console.log(
    `      the same rows' pairs: median added ${fmt(100 * pdf.pairShare)} % of the wall clock; in this thread's CPU time ${fmt(pdf.plainCpu, 2)} → ${fmt(pdf.verifiedCpu, 2)} ms (+${fmt((100 * (pdf.verifiedCpu - pdf.plainCpu)) / pdf.plainCpu)} %)`,
  );
}

runBench(main);
