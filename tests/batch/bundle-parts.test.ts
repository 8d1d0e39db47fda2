import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_PART_ROWS } from '../../shared/batch-schemas.js';
import { rowObjectKey } from '../../main/batch/output-address.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * A batch of more than 10,000 outputs can also be fetched as numbered zips. The batch is made
 * directly in the store (rendering 10,050 rows would take minutes), with tiny output files.
 */
let server: InjectServer;
let batchId: string;
const TOTAL = BUNDLE_PART_ROWS + 50;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1, openingCredits: 20_000 });
  const data = server.core.data;
  batchId = data.batches.newId();
  const now = new Date().toISOString();
  await data.commands.createBatch({
    batch: {
      id: batchId,
      templateId: 'tmpl_quote_card',
      templateSnapshot: {},
      templateVersion: null,
      assetsDir: '/nowhere',
      target: 'square',
      format: 'png',
      quality: null,
      sourceType: 'json-array',
      sourceRef: null,
      sheet: null,
      bindings: {},
      fileNamePattern: null,
      imagesDir: null,
      brand: {},
      today: now.slice(0, 10),
      status: 'queued',
      total: TOTAL,
      rejectedReason: null,
      apiKeyId: null,
      createdAt: now,
    },
    records: Array.from({ length: TOTAL }, (_, rowIndex) => ({ rowIndex, line: null, record: {} })),
  });
  await data.batches.update(batchId, { status: 'running' });
  const claimed = await data.batches.claim(batchId, TOTAL, Date.now() + 60_000);
  const outputs = path.join(server.dataDir, 'outputs');
  for (const row of claimed) {
    const file = path.join(outputs, rowObjectKey(batchId, row.rowIndex, 'png'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `row ${row.rowIndex}`);
  }
  await data.commands.commitRows(
    { batchId, templateId: 'tmpl_quote_card', ratio: 'square', format: 'png', apiKeyId: null },
    claimed.map((row) => ({
      ok: true as const,
      rowIndex: row.rowIndex,
      renderId: row.renderId,
      outputKey: `${batchId}.${row.rowIndex}.png`,
      bytes: 10,
    })),
  );
  await data.commands.finishBatch({ batchId, stopReason: null, ingestError: null, pausing: false });
}, 120_000);
afterAll(async () => server.stop());

async function zipAt(url: string): Promise<AdmZip> {
  const res = await server.fetch(url);
  expect(res.status).toBe(200);
  return new AdmZip(Buffer.from(await res.arrayBuffer()));
}

describe('numbered bundle parts', () => {
  it('lists parts of at most 10,000 outputs whose zips together hold exactly the whole bundle', async () => {
    const link: Json = await (await server.api(`/v1/render-batches/${batchId}/bundle`)).json();
    expect(link.parts.map((p: Json) => [p.part, p.outputs])).toEqual([
      [1, BUNDLE_PART_ROWS],
      [2, 50],
    ]);
    const whole = (await zipAt(link.url)).getEntries().map((e) => e.entryName);
    const first = (await zipAt(link.parts[0].url)).getEntries().map((e) => e.entryName);
    const second = await zipAt(link.parts[1].url);
    expect([...first, ...second.getEntries().map((e) => e.entryName)]).toEqual(whole);
    // Unnamed outputs are numbered from 1: the last row (index TOTAL - 1) is TOTAL.png.
    expect(second.readAsText(`${TOTAL}.png`)).toBe(`row ${TOTAL - 1}`);
  }, 120_000);

  it("puts each part's own rows in its manifest.csv, and refuses a part link it never signed", async () => {
    const link: Json = await (
      await server.api(`/v1/render-batches/${batchId}/bundle?manifest=true`)
    ).json();
    const second = await zipAt(link.parts[1].url);
    const lines = second.readAsText('manifest.csv').trim().split(/\r?\n/);
    expect(lines.length).toBe(1 + 50);
    expect(lines[1]!.startsWith(`${BUNDLE_PART_ROWS},succeeded,`)).toBe(true);
    const past = await server.fetch(link.parts[1].url.replace('.part2.zip', '.part3.zip'));
    expect(past.status).toBe(403);
  }, 120_000);

  it('lists no parts for a batch of up to 10,000 outputs', async () => {
    const small = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: 'tmpl_quote_card',
        sourceType: 'json-array',
        source: { records: [{ quote: 'One', author: 'A' }] },
      },
    });
    const { id } = await small.json();
    for (;;) {
      const batch = await (await server.api(`/v1/render-batches/${id}`)).json();
      if (!['queued', 'running'].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const link: Json = await (await server.api(`/v1/render-batches/${id}/bundle`)).json();
    expect(link.parts).toBeUndefined();
  }, 60_000);
});
