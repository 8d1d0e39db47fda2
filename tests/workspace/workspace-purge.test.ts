import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCore, type RunningCore } from '../../main/app.js';
import { waitForBatch } from '../helpers/batch-helpers.js';
import { TEST_ADMIN_KEY, testFetch, type TestServer } from '../helpers/test-server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<TestServer> {
  const core: RunningCore = await startCore({
    port: 0,
    dataDir,
    apiKey: TEST_ADMIN_KEY,
    openingCredits: 100,
    rateLimit: 10_000,
    workers: 1,
    subscription: undefined,
  });
  return {
    core,
    url: core.url,
    key: TEST_ADMIN_KEY,
    api(pathname, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${TEST_ADMIN_KEY}`);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
      return testFetch(core.url + pathname, { ...init, headers, body });
    },
    stop: () => core.close(),
  };
}

async function forkAndDelete(server: TestServer, withBatch: boolean): Promise<string> {
  const res = await server.api('/v1/catalog/tmpl_quote_card/fork', { method: 'POST', json: {} });
  const { id, sampleValues } = await res.json();
  if (withBatch) {
    const batch = await (
      await server.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: id,
          sourceType: 'json-array',
          source: { records: [sampleValues] },
          format: 'png',
        },
      })
    ).json();
    await waitForBatch(server, batch.id);
  }
  expect((await server.api(`/v1/templates/${id}`, { method: 'DELETE' })).status).toBe(204);
  return id;
}

describe('deleted workspace templates', () => {
  it('keep their files while a batch names them, and are purged at the next start after that', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-purge-'));
    dirs.push(dataDir);
    const folder = (id: string) => path.join(dataDir, 'workspace-templates', id);

    let server = await start(dataDir);
    const unused = await forkAndDelete(server, false);
    const pinned = await forkAndDelete(server, true);
    await server.stop();
    expect(fs.existsSync(folder(unused))).toBe(true);

    server = await start(dataDir);
    expect(fs.existsSync(folder(unused))).toBe(false);
    expect(fs.existsSync(folder(pinned))).toBe(true);
    // The batch can still be replayed from its pinned template; once it is deleted, so are the files.
    const batches: { id: string }[] = await (await server.api('/v1/render-batches')).json();
    expect(batches).toHaveLength(1);
    for (const batch of batches) {
      expect(
        (await server.api(`/v1/render-batches/${batch.id}`, { method: 'DELETE' })).status,
      ).toBe(204);
    }
    await server.stop();

    server = await start(dataDir);
    expect(fs.existsSync(folder(pinned))).toBe(false);
    await server.stop();
  });
});
