/**
 * `npm run bench:openapi`: what GET /v1/openapi.json costs a core, which the UI asks for at every
 * start. A core on a fresh data folder answers it `--requests` times (default 10); each request's
 * wall time and CPU are printed, the first apart (it builds the document) and the median of the
 * others. The client is in the same process, so the CPU includes reading the ~460 KB answer.
 * Usage: npm run bench:openapi [-- --requests 20]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCore } from '../main/app.js';
import { resolveConfig } from '../main/config.js';
import { fmt, median } from './stats.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '10' } } });
const REQUESTS = Math.max(2, Number(values.requests));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-openapi-bench-'));
const apiKey = `rd_bench_${crypto.randomBytes(18).toString('hex')}`;
const core = await startCore(
  resolveConfig(['--port', '0', '--data-dir', dataDir, '--workers', '1', '--api-key', apiKey]),
);
try {
  const samples: { ms: number; cpuMs: number; bytes: number }[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await fetch(`${core.url}/v1/openapi.json`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
    const used = process.cpuUsage(cpu);
    samples.push({
      ms: performance.now() - started,
      cpuMs: (used.user + used.system) / 1000,
      bytes: body.length,
    });
  }
  const first = samples[0]!;
  const later = samples.slice(1);
  console.log(`GET /v1/openapi.json, ${REQUESTS} requests, ${first.bytes} bytes each`);
  console.log(`first:          ${fmt(first.ms, 0)} ms wall, ${fmt(first.cpuMs, 0)} ms CPU`);
  console.log(
    `later (median): ${fmt(median(later.map((s) => s.ms)), 0)} ms wall, ${fmt(median(later.map((s) => s.cpuMs)), 0)} ms CPU`,
  );
} finally {
  await core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
