/** Small timing helpers shared by the benchmarks. */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Runs `fn` `warmup` times untimed, then `runs` times, and returns each duration in ms. */
export async function timeRuns(
  runs: number,
  warmup: number,
  fn: () => Promise<unknown> | unknown,
): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Resident memory of another process (Linux `/proc`), in MiB. */
export function processRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

/**
 * CPU seconds a process has used so far, user + system (Linux /proc), threads and all: the
 * share of a 2-core machine each process of a measured pipeline took.
 */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / CLOCK_TICKS;
}

/** Linux's USER_HZ: /proc counts CPU time in these. */
const CLOCK_TICKS = 100;

/** SIGTERM, and wait until the process has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Machine-wide CPU time so far (Linux `/proc/stat`, in clock ticks): all of it, and stolen. */
export function machineCpuTicks(): { total: number; steal: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = fields.slice(1, 9).map(Number);
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] ?? 0 };
}

/** The share of CPU time the hypervisor gave to other machines while `fn` ran, in %. */
export async function withStealShare<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; steal: number }> {
  const before = machineCpuTicks();
  const value = await fn();
  const after = machineCpuTicks();
  const total = after.total - before.total;
  return { value, steal: total > 0 ? ((after.steal - before.steal) / total) * 100 : 0 };
}
