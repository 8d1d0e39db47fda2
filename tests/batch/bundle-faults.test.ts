import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServe, type SpawnedServe } from '../helpers/spawn-serve.js';
import { testFetch, type Json } from '../helpers/test-server.js';

/**
 * Bundles are streamed from the output files. A file that is gone (deleted by hand, or the batch
 * deleted mid-download) once ended the whole process: the zip stream had no error listener. The
 * server runs as a child process here, so "the process did not die" is checked for real.
 */

const KEY = 'rdk_bundle_faults_key_0123456789';
let server: SpawnedServe | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited();
  server = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function start(): Promise<SpawnedServe> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-bundle-'));
  server = await spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '1000' });
  return server;
}

function api(pathname: string, init: RequestInit = {}) {
  return testFetch(server!.url + pathname, {
    ...init,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
  });
}

async function finishedBatch(rows: number, target = 'square'): Promise<Json> {
  const detail = await (await api('/v1/catalog/tmpl_product_promo')).json();
  const created = await (
    await api('/v1/render-batches', {
      method: 'POST',
      body: JSON.stringify({
        templateId: detail.id,
        target,
        sourceType: 'json-array',
        source: { records: Array.from({ length: rows }, () => detail.sampleValues) },
      }),
    })
  ).json();
  for (;;) {
    const batch = await (await api(`/v1/render-batches/${created.id}`)).json();
    if (!['queued', 'running'].includes(batch.status)) return batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function bundleUrl(batchId: string, manifest = false): Promise<string> {
  const link = await (
    await api(`/v1/render-batches/${batchId}/bundle${manifest ? '?manifest=true' : ''}`)
  ).json();
  return link.url as string;
}

async function expectServing(): Promise<void> {
  expect(server!.child.exitCode).toBeNull();
  expect((await api('/v1/account')).status).toBe(200);
}

describe('bundle downloads when output files are gone', () => {
  it('leaves a lost output out, marks its row in manifest.csv, logs it, and serves every later request', async () => {
    await start();
    const batch = await finishedBatch(6);
    expect(batch.status).toBe('succeeded');
    fs.rmSync(path.join(batch.outputDir, '2.png'));

    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await fetch(await bundleUrl(batch.id, true));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-bundle-missing-outputs')).toBe('1');
      const zip = new AdmZip(Buffer.from(await response.arrayBuffer()));
      const names = zip.getEntries().map((entry) => entry.entryName);
      // Stored as 2.png (row index 2), named 3.png in the bundle (rows count from 1 there).
      expect(names.filter((name) => name.endsWith('.png')).sort()).toEqual(
        ['1.png', '2.png', '4.png', '5.png', '6.png'].sort(),
      );
      const manifest = zip.readAsText('manifest.csv').split('\r\n');
      const row2 = manifest.find((line) => line.startsWith('2,'));
      expect(row2).toMatch(/^2,succeeded,,"?output file missing from the data folder/);
      await expectServing();
    }
    expect(server!.output()).toMatch(
      new RegExp(`the bundle of ${batch.id} leaves out 1 output file\\(s\\) .*\\(rows 2\\)`),
    );
  }, 120_000);

  it('cuts the download short, logs why and stays up when the batch is deleted mid-download', async () => {
    await start();
    // Bigger than every socket buffer between the two ends, so most of the zip is still unread
    // when the batch goes.
    const batch = await finishedBatch(160, 'story');
    expect(batch.status).toBe('succeeded');
    const outputBytes = fs
      .readdirSync(batch.outputDir)
      .reduce((sum, name) => sum + fs.statSync(path.join(batch.outputDir, name)).size, 0);
    expect(outputBytes).toBeGreaterThan(32 * 1024 * 1024);

    const url = await bundleUrl(batch.id);
    const download = await new Promise<{ bytes: number; complete: boolean; status: number }>(
      (resolve) => {
        http.get(url, (response) => {
          let bytes = 0;
          let deleted = false;
          const done = () =>
            resolve({ bytes, complete: response.complete, status: response.statusCode ?? 0 });
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (deleted) return;
            deleted = true;
            response.pause();
            void api(`/v1/render-batches/${batch.id}`, { method: 'DELETE' }).then((answer) => {
              expect(answer.status).toBe(204);
              response.resume();
            });
          });
          response.on('error', done);
          response.on('close', done);
        });
      },
    );
    expect(download.status).toBe(200);
    expect(download.complete).toBe(false);
    expect(download.bytes).toBeLessThan(outputBytes);

    await expect
      .poll(() => server!.output(), { timeout: 10_000 })
      .toMatch(
        new RegExp(`the bundle download of ${batch.id} was cut short: could not read \\d+\\.png`),
      );
    await expectServing();
    // The batch is gone; asking for its bundle again is a plain 404, not another crash.
    expect((await api(`/v1/render-batches/${batch.id}/bundle`)).status).toBe(404);
    await expectServing();
  }, 180_000);
});
