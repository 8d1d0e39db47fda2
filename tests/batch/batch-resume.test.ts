import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/spawn-serve.js';
import { testFetch, type Json } from '../helpers/test-server.js';

const KEY = 'rdk_resume_test_key_0123456789';

const startServe = (dataDir: string) =>
  spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '1000' });

const api = (url: string, pathname: string, init: RequestInit = {}) =>
  testFetch(url + pathname, {
    ...init,
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  });

describe('a batch interrupted by kill -9', () => {
  it('resumes after a restart: every row exactly once, debits equal succeeded rows, no orphan files', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-resume-'));
    let server = await startServe(dataDir);
    try {
      const catalog: Json[] = await (await api(server.url, '/v1/catalog')).json();
      const detail = await (await api(server.url, `/v1/catalog/${catalog[0].id}`)).json();
      const records = Array.from({ length: 120 }, () => detail.sampleValues);
      const created = await (
        await api(server.url, '/v1/render-batches', {
          method: 'POST',
          body: JSON.stringify({
            templateId: detail.id,
            sourceType: 'json-array',
            source: { records },
          }),
        })
      ).json();

      // Kill the server hard once some, but not all, rows are done.
      for (;;) {
        const batch = await (await api(server.url, `/v1/render-batches/${created.id}`)).json();
        if (batch.succeeded >= 10) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));

      server = await startServe(dataDir);
      let batch: Json;
      for (;;) {
        batch = await (await api(server.url, `/v1/render-batches/${created.id}`)).json();
        if (!['queued', 'running'].includes(batch.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(batch).toMatchObject({ status: 'succeeded', total: 120, succeeded: 120, failed: 0 });

      const rows: Json[] = [];
      let cursor: string | null = '0';
      while (cursor !== null) {
        const page: Json = await (
          await api(
            server.url,
            `/v1/render-batches/${created.id}/renders?cursor=${cursor}&limit=50`,
          )
        ).json();
        rows.push(...page.rows);
        cursor = page.nextCursor;
      }
      expect(rows.map((r) => r.rowIndex)).toEqual([...Array(120).keys()]);
      expect(new Set(rows.map((r) => r.renderId)).size).toBe(120);

      const ledger = await (
        await api(server.url, '/v1/account/ledger?kind=debit&limit=500')
      ).json();
      expect(ledger.entries.filter((e: Json) => e.batchId === created.id)).toHaveLength(120);
      const account = await (await api(server.url, '/v1/account')).json();
      expect(account).toMatchObject({ balance: 880, heldCredits: 0 });

      const files = fs
        .readdirSync(batch.outputDir)
        .filter((name) => !fs.statSync(path.join(batch.outputDir, name)).isDirectory());
      expect(files.sort()).toEqual([...Array(120).keys()].map((i) => `${i}.png`).sort());
    } finally {
      server.child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
