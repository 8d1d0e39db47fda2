import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { woff2Bomb, woffBomb } from '../fonts/fixtures/font-bombs.js';
import { MONTSERRAT } from '../fonts/fixtures/sfnt-fixtures.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

const MiB = 1024 * 1024;
let server: InjectServer;
let woff2: Buffer;
let woff: Buffer;

beforeAll(async () => {
  server = await buildInjectServer();
  const ttf = fs.readFileSync(MONTSERRAT);
  woff2 = await woff2Bomb(ttf, 512 * MiB);
  woff = await woffBomb(ttf, 64 * MiB);
}, 120_000);
afterAll(() => server.stop());

function uploadFont(bytes: Buffer, type: string) {
  return server.api('/v1/fonts', {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
}

describe('font uploads built to exhaust memory', () => {
  it('are refused with 422 font-too-large while the API keeps answering, in bounded memory', async () => {
    const rssBefore = process.memoryUsage.rss();
    let peakRss = rssBefore;
    let slowestPing = 0;
    let pings = 0;
    let uploading = true;
    const pinger = (async () => {
      while (uploading) {
        const started = performance.now();
        const res = await server.api('/v1/fonts');
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        slowestPing = Math.max(slowestPing, performance.now() - started);
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
        pings += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all([
      uploadFont(woff2, 'font/woff2'),
      uploadFont(woff2, 'application/octet-stream'),
      uploadFont(woff, 'font/woff'),
      uploadFont(woff2, 'font/woff2'),
    ]);
    const elapsed = performance.now() - started;
    uploading = false;
    await pinger;

    for (const res of answers) {
      const body = await expectProblem(res, 422, 'font-too-large');
      expect(body.detail).toMatch(/decompresses to more than the \d+ bytes its directory declares/);
    }
    // Inflating the bombs whole took ~9 s each on the API thread and 512 MiB apiece.
    expect(elapsed).toBeLessThan(5000);
    expect(pings).toBeGreaterThan(0);
    expect(slowestPing).toBeLessThan(1000);
    expect((peakRss - rssBefore) / MiB).toBeLessThan(200);
    const fonts = await (await server.api('/v1/fonts')).json();
    expect(fonts.families.filter((f: { source: string }) => f.source === 'custom')).toEqual([]);
  }, 60_000);
});
