import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const SCRIPT = path.join(REPO_ROOT, 'docs', 'examples', 'python', 'render_desk_example.py');

/** python3 is required, never skipped: a missing one fails here, naming the package. */
function requirePython(): void {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error('python3 is required for this test (Debian: apt-get install python3)');
}

function runPython(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SCRIPT, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the Python example (standard library only)', () => {
  let server: TestServer;
  let outDir: string;
  beforeAll(async () => {
    requirePython();
    server = await startTestServer();
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-python-example-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('renders an image and runs a batch to a zip against a real server', async () => {
    const result = await runPython(['--out-dir', outDir], {
      RENDER_DESK_URL: server.url,
      RENDER_DESK_API_KEY: server.key,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/rendered .*card\.png \(\d+ bytes\), 999 credits left/);
    expect(result.stdout).toMatch(/batch bat_\S+: succeeded, 3 of 3 rendered/);

    const meta = await sharp(path.join(outDir, 'card.png')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
    const names = new AdmZip(path.join(outDir, 'batch.zip'))
      .getEntries()
      .map((entry) => entry.entryName)
      .sort();
    expect(names).toEqual(['1.png', '2.png', '3.png', 'manifest.csv']);
  });

  it('reports a refusal with its code and exits 2', async () => {
    const result = await runPython(['--out-dir', outDir], {
      RENDER_DESK_URL: server.url,
      RENDER_DESK_API_KEY: 'rdk_not_a_key_0123456789abcdef',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Render Desk refused: 401 unauthorized/);
  });
});
