import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForBatch, fullManifest } from '../helpers/batch-helpers.js';
import { runawayRender } from '../helpers/runaway-template.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

// Far above a normal render even on a loaded machine, far below the runaway's ~100 s.
const DEADLINE_MS = 5_000;
let server: InjectServer;
let runaway: { templateId: string; values: Json };
let normal: { templateId: string; values: Json };

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1, renderTimeoutMs: DEADLINE_MS });
  ({ runaway, normal } = await runawayRender(server.api));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const render = (body: unknown) => server.api('/v1/render', { method: 'POST', json: body });

describe('the render deadline', () => {
  it('answers 422 render-timeout, charges nothing, and replaces the thread for the next render', async () => {
    const before = (await (await server.api('/v1/account')).json()).balance;
    const startedAt = Date.now();
    const answer = await render(runaway);
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({
      code: 'render-timeout',
      detail: expect.stringMatching(/longer than 5 s/),
    });
    expect(Date.now() - startedAt).toBeLessThan(DEADLINE_MS + 30_000);
    expect((await (await server.api('/v1/account')).json()).balance).toBe(before);

    const next = await render(normal);
    expect(next.status).toBe(200);
    expect(next.headers.get('content-type')).toBe('image/png');
  }, 120_000);

  it('makes a normal render wait behind a runaway one no longer than the deadline', async () => {
    const stuck = render(runaway);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const startedAt = Date.now();
    const answer = await render(normal);
    const waited = Date.now() - startedAt;
    expect(answer.status).toBe(200);
    // The runaway alone would hold the only thread for well over a minute.
    expect(waited).toBeLessThan(DEADLINE_MS + 20_000);
    expect((await stuck).status).toBe(422);
  }, 120_000);

  it('fails a batch row that passes the deadline with that reason and renders the others', async () => {
    const created: Json = await (
      await server.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: runaway.templateId,
          sourceType: 'json-array',
          source: { records: [runaway.values, { ...runaway.values, headline: 'Short' }] },
        },
      })
    ).json();
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({ status: 'partial', succeeded: 1, failed: 1 });
    const rows = await fullManifest(server, created.id);
    expect(rows[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/render took longer than 5 s/),
    });
    expect(rows[1]).toMatchObject({ status: 'succeeded' });
  }, 120_000);
});
