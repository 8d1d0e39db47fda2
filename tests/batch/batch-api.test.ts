import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import {
  createBatch,
  downloadBundle,
  fullManifest,
  waitForBatch,
} from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

let server: InjectServer;
let template: CatalogDetail;
let textVar: string;
let numberVar: string;
let imageVar: string;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2, openingCredits: 5000 });
  // The reference template: text, number and image variables, and a required photo.
  template = await catalogDetail(server, 'tmpl_product_promo');
  textVar = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!.name;
  numberVar = template.variables.find((v) => v.type === 'number')!.name;
  imageVar = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
});
afterAll(() => server.stop());

const sha = (bytes: Buffer | ArrayBuffer) =>
  crypto
    .createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');
const account = async () => (await server.api('/v1/account')).json();

function records(n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: n }, (_, i) => ({
    ...template.sampleValues,
    [textVar]: `Sản phẩm ${i}`,
    [numberVar]: 1000 * (i + 1),
    ...extra(i),
  }));
}

async function debitsForBatch(id: string): Promise<number> {
  const page = await (await server.api('/v1/account/ledger?kind=debit&limit=500')).json();
  return page.entries.filter((e: Json) => e.batchId === id).length;
}

describe('batches from inline records', () => {
  it('renders every row, lists each exactly once, charges one credit per image and zips the outputs', async () => {
    const before = await account();
    const created = await createBatch(server, {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: records(12) },
    });
    expect(created).toMatchObject({ id: expect.stringMatching(/^bat_/), status: 'queued' });
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({
      status: 'succeeded',
      total: 12,
      succeeded: 12,
      failed: 0,
      target: 'square',
    });

    const rows = await fullManifest(server, created.id, 5);
    expect(rows.map((r) => r.rowIndex)).toEqual([...Array(12).keys()]);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'succeeded',
        renderId: expect.stringMatching(/^rnd_/),
        error: null,
      });
      expect(row.outputKey).toBeTruthy();
    }
    const after = await account();
    expect(before.balance - after.balance).toBe(12);
    expect(after.heldCredits).toBe(0);
    expect(await debitsForBatch(created.id)).toBe(12);

    const zip = await downloadBundle(server, created.id, true);
    const names = zip
      .getEntries()
      .map((e) => e.entryName)
      .sort();
    // Unnamed outputs are numbered by row from 1, as the app shows rows.
    expect(names).toEqual(
      [...[...Array(12).keys()].map((i) => `${i + 1}.png`), 'manifest.csv'].sort(),
    );
    const manifest = zip.readAsText('manifest.csv');
    expect(manifest.split('\r\n')[0]).toBe('\ufeffrowIndex,status,file,error');
    expect(manifest).toContain('3,succeeded,4.png,');
  });

  /** Runs `recs` as a square batch of the reference template, to the end. */
  async function runRecords(recs: Record<string, unknown>[]) {
    const created = await createBatch(server, {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: recs },
    });
    return { created, batch: await waitForBatch(server, created.id) };
  }

  /** Runs `recs` as a batch and checks every row's output against the single render. */
  async function expectRowsLikeSingleRenders(recs: Record<string, unknown>[]): Promise<void> {
    const { created } = await runRecords(recs);
    const rows = await fullManifest(server, created.id);
    expect(rows).toHaveLength(recs.length);
    for (const row of rows) {
      const output = await server.api(`/v1/outputs/${row.outputKey}`);
      expect(output.status).toBe(200);
      const single = await server.api('/v1/render', {
        method: 'POST',
        json: { templateId: template.id, target: 'square', values: recs[row.rowIndex] },
      });
      expect(sha(await output.arrayBuffer()), `row ${row.rowIndex}`).toBe(
        sha(await single.arrayBuffer()),
      );
    }
  }

  it('gives each row the same bytes as the single render of its values', async () => {
    await expectRowsLikeSingleRenders(records(3));
  });

  it('binds a field that only later records have, row by row, like the single render', async () => {
    const subtitle = template.variables.find((v) => v.type === 'longText' || v.name === 'subtitle');
    expect(subtitle).toBeDefined();
    const { [subtitle!.name]: _omitted, ...withoutSubtitle } = records(1)[0]!;
    await expectRowsLikeSingleRenders([
      withoutSubtitle,
      { ...withoutSubtitle, [subtitle!.name]: 'Chỉ dòng thứ hai có' },
    ]);
  });

  it('fails a row whose text value is an object instead of printing it', async () => {
    const { created, batch } = await runRecords(
      records(2, (i) => (i === 1 ? { [textVar]: { nested: true } } : {})),
    );
    expect(batch).toMatchObject({ status: 'partial', succeeded: 1, failed: 1 });
    const failed = (await fullManifest(server, created.id)).find((r) => r.status === 'failed');
    expect(failed.error).toContain(`values.${textVar}: expected text, got an object`);
  });

  it('fails only the malformed row and reports why; the batch is partial', async () => {
    const { created, batch } = await runRecords(
      records(5, (i) => (i === 2 ? { [numberVar]: 'not a number' } : {})),
    );
    expect(batch).toMatchObject({ status: 'partial', succeeded: 4, failed: 1 });
    const rows = await fullManifest(server, created.id);
    const failed = rows.find((r) => r.status === 'failed');
    // A failed row has a render id too (the contract's manifest row always carries one).
    expect(failed).toMatchObject({
      rowIndex: 2,
      outputKey: null,
      renderId: expect.stringMatching(/^rnd_/),
    });
    expect(new Set(rows.map((r) => r.renderId)).size).toBe(5);
    expect(failed.error).toContain(`values.${numberVar}`);
    expect(await debitsForBatch(created.id)).toBe(4);
    expect((await account()).heldCredits).toBe(0);
  });

  it('renders formula-looking cells as literal text', async () => {
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(1, () => ({ [textVar]: '=HYPERLINK("http://x","y")' })) },
    });
    expect((await waitForBatch(server, created.id)).status).toBe('succeeded');
  });

  it('names files from a pattern, safely and uniquely', async () => {
    const recs = records(4, (i) => ({ sku: i < 2 ? 'SKU/1' : 'CON', name: 'Áo dài' }));
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: recs },
      fileNamePattern: '{sku}-{name}',
      format: 'jpeg',
    });
    await waitForBatch(server, created.id);
    const manifest = await fullManifest(server, created.id);
    expect(manifest.map((r) => r.fileName)).toEqual([
      'SKU-1-Áo dài.jpg',
      'SKU-1-Áo dài-2.jpg',
      'CON-Áo dài.jpg',
      'CON-Áo dài-2.jpg',
    ]);
    const zip = await downloadBundle(server, created.id);
    expect(zip.getEntries().map((e) => e.entryName)).toEqual([
      'SKU-1-Áo dài.jpg',
      'SKU-1-Áo dài-2.jpg',
      'CON-Áo dài.jpg',
      'CON-Áo dài-2.jpg',
    ]);
    const meta = await sharp(zip.getEntries()[0]!.getData()).metadata();
    expect(meta.format).toBe('jpeg');
  });
});

describe('batch credits, statuses and lifecycle', () => {
  it('rejects a batch the balance cannot cover: failed, insufficient-credits, nothing rendered or held', async () => {
    const poor = await buildInjectServer({ openingCredits: 2, workers: 1 });
    try {
      const res = await poor.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: template.id,
          sourceType: 'json-array',
          source: { records: records(3) },
        },
      });
      expect(res.status).toBe(202);
      const created = await res.json();
      const batch = await (await poor.api(`/v1/render-batches/${created.id}`)).json();
      expect(batch).toMatchObject({
        status: 'failed',
        rejectedReason: 'insufficient-credits',
        succeeded: 0,
        failed: 0,
      });
      expect(await (await poor.api('/v1/account')).json()).toMatchObject({
        balance: 2,
        heldCredits: 0,
      });

      await poor.api('/v1/account/credits', { method: 'POST', json: { amount: 10 } });
      expect(
        (await poor.api(`/v1/render-batches/${created.id}/replay`, { method: 'POST' })).status,
      ).toBe(202);
      expect((await waitForBatch(poor, created.id)).status).toBe('succeeded');
      expect(await (await poor.api('/v1/account')).json()).toMatchObject({
        balance: 9,
        heldCredits: 0,
      });
    } finally {
      await poor.stop();
    }
  });

  it('answers 422 for the bundle while running, cancels idempotently and keeps rendered outputs', async () => {
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(150) },
    });
    const early = await server.api(`/v1/render-batches/${created.id}/bundle`);
    expect(early.status).toBe(422);
    expect((await early.json()).code).toBe('bundle-not-ready');
    const replayEarly = await server.api(`/v1/render-batches/${created.id}/replay`, {
      method: 'POST',
    });
    expect(replayEarly.status).toBe(409);
    expect((await replayEarly.json()).code).toBe('batch-not-terminal');

    const cancelled = await (
      await server.api(`/v1/render-batches/${created.id}/cancel`, { method: 'POST' })
    ).json();
    expect(cancelled.status).toBe('cancelled');
    const again = await server.api(`/v1/render-batches/${created.id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect((await again.json()).status).toBe('cancelled');

    const rows = await fullManifest(server, created.id);
    expect(rows).toHaveLength(150);
    const done = rows.filter((r) => r.status === 'succeeded');
    expect(rows.every((r) => ['succeeded', 'cancelled'].includes(r.status))).toBe(true);
    expect(await debitsForBatch(created.id)).toBe(done.length);
    expect((await account()).heldCredits).toBe(0);
    if (done[0]) {
      expect((await server.api(`/v1/outputs/${done[0].outputKey}`)).status).toBe(200);
      const thumb = await server.api(`/v1/outputs/${done[0].outputKey}?width=96`);
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(96);
    }
    const zip = await downloadBundle(server, created.id);
    expect(zip.getEntries()).toHaveLength(done.length);
  });

  it('replays failed rows after the cause is fixed; succeeded rows keep their identity', async () => {
    const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-images-'));
    const photo = await sharp({
      create: { width: 80, height: 60, channels: 3, background: '#cc6633' },
    })
      .jpeg()
      .toBuffer();
    fs.mkdirSync(path.join(imagesDir, 'photos'));
    fs.writeFileSync(path.join(imagesDir, 'photos', 'a.jpg'), photo);
    const recs = records(3, (i) => ({
      [imageVar]: i === 1 ? 'photos/missing.jpg' : 'photos/a.jpg',
    }));
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: recs },
      imagesDir,
    });
    expect(await waitForBatch(server, created.id)).toMatchObject({ status: 'partial', failed: 1 });
    const before = await fullManifest(server, created.id);
    expect(before[1].error).toMatch(/not in the images folder/);

    fs.writeFileSync(path.join(imagesDir, 'photos', 'missing.jpg'), photo);
    const replay = await server.api(`/v1/render-batches/${created.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 3,
      failed: 0,
    });
    const after = await fullManifest(server, created.id);
    for (const i of [0, 2])
      expect(after[i]).toMatchObject({
        renderId: before[i].renderId,
        outputKey: before[i].outputKey,
      });
    // The replayed row keeps the id it had when it failed; its output and debit carry it.
    expect(after[1].renderId).toBe(before[1].renderId);
    expect(await debitsForBatch(created.id)).toBe(3);

    const nothing = await server.api(`/v1/render-batches/${created.id}/replay`, { method: 'POST' });
    expect(nothing.status).toBe(409);
    expect((await nothing.json()).code).toBe('nothing-to-replay');
  });

  it('refuses image paths that escape the images folder', async () => {
    const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-images-'));
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(1, () => ({ [imageVar]: '../../etc/passwd' })) },
      imagesDir,
    });
    await waitForBatch(server, created.id);
    const [row] = await fullManifest(server, created.id);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row.error).toMatch(/outside the images folder/);
  });

  it('stops a systematically failing batch as degraded and releases the held credits', async () => {
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(40, () => ({ [imageVar]: '/no/such/photo.jpg' })) },
    });
    const batch = await waitForBatch(server, created.id);
    expect(batch.status).toBe('degraded');
    expect(batch.stoppedReason).toMatch(/10 rows in a row failed/);
    expect(batch.failed).toBeGreaterThanOrEqual(10);
    expect(batch.failed).toBeLessThan(40);
    expect((await account()).heldCredits).toBe(0);
    const rows = await fullManifest(server, created.id);
    expect(rows).toHaveLength(40);
    expect(rows.some((r) => r.status === 'pending')).toBe(true);
  });

  it('deletes a batch with its rows and outputs', async () => {
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(2) },
    });
    const batch = await waitForBatch(server, created.id);
    const [row] = await fullManifest(server, created.id);
    expect(
      (await server.api(`/v1/render-batches/${created.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await server.api(`/v1/render-batches/${created.id}`)).status).toBe(404);
    expect((await server.api(`/v1/outputs/${row.outputKey}`)).status).toBe(404);
    expect(fs.existsSync(batch.outputDir)).toBe(false);
  });

  it('streams progress events until the end', async () => {
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: { records: records(6) },
    });
    const res = await server.fetch(`${server.url}/v1/render-batches/${created.id}/events`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toContain('event: progress');
    expect(text).toMatch(/event: end\ndata: \{[^\n]*"status":"succeeded"/);
  });
});

describe('batch requests with bad input', () => {
  it('answers 422 with paths for unknown bindings, fields and ratios, and 404 for an unknown template', async () => {
    const bad = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: template.id,
        target: 'banner',
        sourceType: 'json-array',
        source: { records: [{}] },
        bindings: { nope: { field: 'x' } },
      },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.map((e: Json) => e.path)).toContain('target');
    const unknownVar = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: template.id,
        sourceType: 'json-array',
        source: { records: [{}] },
        bindings: { nope: { field: 'x' } },
      },
    });
    expect((await unknownVar.json()).errors.map((e: Json) => e.path)).toContain('bindings.nope');
    const missing = await server.api('/v1/render-batches', {
      method: 'POST',
      json: { templateId: 'tmpl_missing', sourceType: 'json-array', source: { records: [{}] } },
    });
    expect(missing.status).toBe(404);
    const noRows = await server.api('/v1/render-batches', {
      method: 'POST',
      json: { templateId: template.id, sourceType: 'json-array', source: { records: [] } },
    });
    expect(noRows.status).toBe(422);
  });

  it('answers 404 for unknown batches and outputs', async () => {
    expect((await server.api('/v1/render-batches/bat_nope')).status).toBe(404);
    expect((await server.api('/v1/render-batches/bat_nope/renders')).status).toBe(404);
    expect((await server.api('/v1/outputs/bat_nope.0.png')).status).toBe(404);
    expect((await server.api('/v1/outputs/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
  });
});

describe('template fields and pre-flight', () => {
  it('lists the content fields without brand-bound ones, as JSON and as a CSV to fill in', async () => {
    const result = await (
      await server.api(`/v1/render-batches/template-fields?templateId=${template.id}`)
    ).json();
    expect(result.templateId).toBe(template.id);
    const names = result.fields.map((f: Json) => f.name);
    for (const v of template.variables) {
      if (v.bindsTo) expect(names).not.toContain(v.name);
      else expect(names).toContain(v.name);
    }
    expect(Object.keys(result.sampleRow)).toEqual(names);
    const csv = await server.api(
      `/v1/render-batches/template-fields?templateId=${template.id}&format=csv`,
    );
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const bytes = Buffer.from(await csv.arrayBuffer());
    // The BOM makes Excel read the file as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).toBe(names.join(','));
  });

  it('reports per-row problems and the cost without rendering or charging', async () => {
    const before = await account();
    const recs = records(4, (i) =>
      i === 1 ? { [numberVar]: 'abc' } : i === 3 ? { [imageVar]: '/no/such.png' } : {},
    );
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: { templateId: template.id, sourceType: 'json-array', source: { records: recs } },
    });
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result).toMatchObject({ total: 4, valid: 2, invalid: 2, cost: 4, sufficient: true });
    expect(result.problems.map((p: Json) => p.rowIndex)).toEqual([1, 3]);
    expect(result.problems[0].errors[0].path).toBe(`values.${numberVar}`);
    expect(await account()).toEqual(before);
  });
});

describe('pre-flight text and glyph checks', () => {
  it('warns of text cut short at its minimum size (the row renders) and fails characters no font draws', async () => {
    const long = 'Siêu khuyến mãi cuối năm '.repeat(60);
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: {
        templateId: template.id,
        sourceType: 'json-array',
        source: {
          records: [
            records(1)[0],
            { ...records(1)[0], [textVar]: long },
            { ...records(1)[0], [textVar]: 'Tết \u{10FFFD}' },
          ],
        },
      },
    });
    const result = await res.json();
    expect(result.invalid).toBe(1);
    expect(result.valid).toBe(2);
    const byRow = new Map(
      result.problems.map((p: Json) => [
        p.rowIndex,
        p.errors.map((e: Json) => e.message).join(' '),
      ]),
    );
    expect(byRow.has(1)).toBe(false);
    expect(byRow.get(2)).toMatch(/no bundled font can draw/);
    expect(result.warnings).toContainEqual({
      path: `values.${textVar}`,
      message: expect.stringMatching(/too long for its space.*\(rows 2\)$/),
      rows: 1,
    });
  });
});
