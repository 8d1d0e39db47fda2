import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { TEST_ADMIN_KEY, type TestServer } from '../helpers/test-server.js';
import { startCore } from '../../main/app.js';

/** A small tmpfs where the outputs go fills up after a few images (needs root, as CI has). */
function mountSmallDisk(dir: string, size: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-diskfull-'));
const outputs = path.join(dataDir, 'outputs');
const mounted = mountSmallDisk(outputs, '2m');
let server: TestServer | undefined;

afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync('umount', [outputs]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a full disk while writing outputs', () => {
  it.runIf(mounted)(
    'fails the row with a clear error, stops the batch as degraded and corrupts nothing',
    async () => {
      const core = await startCore({
        port: 0,
        dataDir,
        apiKey: TEST_ADMIN_KEY,
        openingCredits: 1000,
        rateLimit: 10_000,
        workers: 1,
        subscription: undefined,
      });
      server = {
        core,
        url: core.url,
        key: TEST_ADMIN_KEY,
        api: (pathname, init = {}) => {
          const headers = new Headers(init.headers);
          headers.set('authorization', `Bearer ${TEST_ADMIN_KEY}`);
          if (init.json !== undefined) headers.set('content-type', 'application/json');
          return fetch(core.url + pathname, {
            ...init,
            headers,
            body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
          }) as never;
        },
        stop: () => core.close(),
      };
      const detail = await (await server.api('/v1/catalog/tmpl_product_promo')).json();
      const created = await createBatch(server, {
        templateId: detail.id,
        sourceType: 'json-array',
        source: { records: Array.from({ length: 30 }, () => detail.sampleValues) },
      });
      const batch = await waitForBatch(server, created.id);
      expect(batch.status).toBe('degraded');
      expect(batch.stoppedReason).toMatch(/disk is full/);
      const rows = await fullManifest(server, created.id);
      expect(rows).toHaveLength(30);
      const failed = rows.filter((r) => r.status === 'failed');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed[0].error).toMatch(/disk is full.*Free some space, then replay/);
      const succeeded = rows.filter((r) => r.status === 'succeeded');
      expect(succeeded.length).toBeGreaterThan(0);
      // Every committed output is whole; no temp files are left behind.
      const files = fs.readdirSync(batch.outputDir);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      for (const row of succeeded) {
        const meta = await sharp(path.join(batch.outputDir, `${row.rowIndex}.png`)).metadata();
        expect(meta.width).toBe(1080);
      }
      const ledger = await (await server.api('/v1/account/ledger?kind=debit&limit=500')).json();
      expect(
        ledger.entries.filter((e: { batchId: string }) => e.batchId === created.id),
      ).toHaveLength(succeeded.length);
      expect((await (await server.api('/v1/account')).json()).heldCredits).toBe(0);
    },
  );
});
