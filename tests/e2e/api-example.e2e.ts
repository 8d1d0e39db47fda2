import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';

/**
 * Runs an example as a user pastes it into a shell, in a fresh folder. Not with spawnSync: the
 * test's core runs in this process (harness.ts) and answers curl only while the event loop runs.
 */
function runPasted(code: string, dir: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const run = spawn('bash', ['-c', code], { cwd: dir, timeout: 60_000 });
    let output = '';
    run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    run.once('error', reject);
    run.once('close', (status) => resolve({ status, output }));
  });
}

describe('the Local API examples', () => {
  const session = useCoreAndUi();
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-curl-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the curl example as pasted with a new key, and never saves an error as image.png', async () => {
    const { ui } = session;
    const { page } = ui;
    await page.locator('nav.sidebar').getByRole('link', { name: 'Local API' }).click();
    const example = page.getByTestId('example-curl');
    await expect.poll(async () => (await example.textContent()) ?? '').toContain('"headline"');

    // Without a key yet: curl fails loudly and writes no JSON into image.png.
    const before = await runPasted((await example.textContent())!, dir);
    expect(before.status).not.toBe(0);
    const image = path.join(dir, 'image.png');
    expect(fs.existsSync(image) ? fs.readFileSync(image).length : 0).toBe(0);

    await page.getByLabel('Key name').fill('Marketing sheet');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent())!.trim();
    await expect.poll(async () => (await example.textContent()) ?? '').toContain(secret);
    await screenshot(page, 'api-example-key');

    const after = await runPasted((await example.textContent())!, dir);
    expect(after.status, after.output).toBe(0);
    expect(fs.readFileSync(image).subarray(1, 4).toString()).toBe('PNG');
    expect(ui.consoleErrors).toEqual([]);
  });
});
