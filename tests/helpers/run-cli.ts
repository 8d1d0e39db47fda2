import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './image-fixtures.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** With when it printed and when it ended: what it did after its result. */
export interface TimedCliResult extends CliResult {
  /** Milliseconds from the start to the last output on stdout (the result, or nothing). */
  lastStdoutMs: number | undefined;
  /** Milliseconds from the start to the exit. */
  exitMs: number;
}

/** `render-desk …` as a user runs it: the package's bin, a child process, pipes (no terminal). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<TimedCliResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastStdoutMs: number | undefined;
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'render-desk.mjs'), ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      lastStdoutMs = performance.now() - started;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code, stdout, stderr, lastStdoutMs, exitMs: performance.now() - started }),
    );
  });
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A CSV file of `rows` rows built from `row(i)`, header from the first row's keys. */
export function writeCsv(file: string, rows: Record<string, string | number>[]): void {
  const fields = Object.keys(rows[0] ?? {});
  const cell = (value: string | number) => {
    const text = String(value);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [
    fields.join(','),
    ...rows.map((row) => fields.map((f) => cell(row[f] ?? '')).join(',')),
  ];
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}
