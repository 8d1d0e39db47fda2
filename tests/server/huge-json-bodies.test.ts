import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/expect-problem.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A JSON body just under the batch routes' 32 MiB limit made of millions of tiny values once
 * held the API thread ~8 s (JSON.parse, then validation) before it was refused, and every other
 * client waited that long.
 */

const MiB = 1024 * 1024;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

/** `{"templateId":…,"source":{"records":[<item>,<item>,…]}}` of about `bytes` bytes. */
function batchOf(item: string, bytes: number): string {
  const head = '{"templateId":"tmpl_product_promo","sourceType":"json-array","source":{"records":[';
  const count = Math.floor((bytes - head.length - 4) / (item.length + 1));
  return `${head}${`${item},`.repeat(count - 1)}${item}]}}`;
}

/** Sends `body` while another client asks for its account every 20 ms; the slowest answer. */
async function sendWhilePolling(pathname: string, body: string) {
  let sending = true;
  let slowest = 0;
  let polls = 0;
  const poller = (async () => {
    while (sending) {
      const started = performance.now();
      const res = await server.api('/v1/account');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const res = await server.api(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    return { status: res.status, res, text, slowest, polls: () => polls };
  } finally {
    sending = false;
    await poller;
  }
}

describe('huge JSON bodies of tiny values', () => {
  it('refuses 31 MiB of empty records with 413 payload-too-large while other clients are answered at once', async () => {
    const body = batchOf('{}', 31 * MiB);
    for (const pathname of ['/v1/render-batches', '/v1/render-batches/preflight']) {
      const sent = await sendWhilePolling(pathname, body);
      expect(sent.status, sent.text.slice(0, 500)).toBe(413);
      const problem = JSON.parse(sent.text) as { code: string; detail: string };
      expect(problem.code).toBe('payload-too-large');
      expect(problem.detail).toMatch(/more than 100,000 items/);
      expect(problem.detail).toMatch(/POST \/v1\/uploads/);
      expect(sent.polls()).toBeGreaterThan(0);
      // Held for the whole parse, the API thread kept other clients waiting ~8 s; the bound
      // leaves a slow two-core machine room for the refusal's own work (1.05 s seen there).
      expect(sent.slowest).toBeLessThan(2_000);
    }
  }, 120_000);

  it('refuses a body of nested arrays holding millions of values in all with 413', async () => {
    // 400 arrays of 40,000 zeros: no array is over its limit, the body is.
    const inner = `[${'0,'.repeat(39_999)}0]`;
    const body = batchOf(inner, 32 * 1_000_000);
    const sent = await sendWhilePolling('/v1/render-batches/preflight', body);
    expect(sent.status, sent.text.slice(0, 500)).toBe(413);
    expect(JSON.parse(sent.text)).toMatchObject({
      code: 'payload-too-large',
      detail: expect.stringMatching(/more than 5,000,000 values/),
    });
    expect(sent.slowest).toBeLessThan(1_000);
  }, 120_000);

  it('still takes 50,000 records, and answers 50,001 with a 422 naming the limit', async () => {
    const record = '{"headline":"Hi"}';
    const at = (count: number) =>
      `{"templateId":"tmpl_product_promo","sourceType":"json-array","source":{"records":[${`${record},`.repeat(count - 1)}${record}]}}`;
    const fits = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: at(50_000),
    });
    expect(fits.status, await fits.clone().text()).toBe(200);
    const over = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: at(50_001),
    });
    const problem = await expectProblem(over, 422, 'validation-failed');
    expect(JSON.stringify(problem)).toMatch(
      /at most 50,000 records as JSON; for more rows, use a CSV or XLSX file/,
    );
  }, 60_000);
});
