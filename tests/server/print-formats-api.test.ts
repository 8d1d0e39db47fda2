import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBatch,
  downloadBundle,
  fullManifest,
  waitForBatch,
} from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { poppler } from '../helpers/poppler.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

const CERTIFICATE = 'tmpl_certificate_award';

let server: InjectServer;
let sample: Record<string, unknown>;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  sample = (await catalogDetail(server, CERTIFICATE)).sampleValues;
});
afterAll(() => server.stop());

const render = (body: Record<string, unknown>) =>
  server.api('/v1/render', {
    method: 'POST',
    json: { templateId: CERTIFICATE, values: sample, ...body },
  });

describe('print formats through the API', () => {
  it('lists a print layout among the targets, with its page', async () => {
    const detail = await catalogDetail(server, CERTIFICATE);
    expect(detail.targets).toEqual([...detail.ratios, 'a4']);
    expect(detail.layouts.a4).toEqual({
      width: 1754,
      height: 1240,
      aspect: '297 × 210 mm print at 150 dpi',
      page: { unit: 'mm', width: 297, height: 210, dpi: 150, bleed: 3, safe: 10 },
    });
  });

  it('POST /v1/render answers a vector A4 PDF for the a4 layout', async () => {
    const res = await render({ target: 'a4', format: 'pdf', cropMarks: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(poppler('pdfinfo', pdf, ['-box'])).toMatch(/TrimBox:\s+25\.51\s+[\d.]+\s+867\.40/);
    expect(poppler('pdftotext', pdf)).toContain(sample.recipient as string);
  });

  it('POST /v1/render answers avif, and a transparent png at scale 2', async () => {
    const avif = await render({ target: 'square', format: 'avif' });
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect((await sharp(Buffer.from(await avif.arrayBuffer())).metadata()).compression).toBe('av1');
    const png = await render({ target: 'og', format: 'png', background: 'transparent', scale: 2 });
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([2400, 1260, 4]);
  });

  it('answers 422 naming the option a format cannot honour, and the layouts a target may name', async () => {
    const jpeg = await render({ format: 'jpeg', background: 'transparent' });
    expect(jpeg.status).toBe(422);
    expect((await jpeg.json()).errors).toEqual([expect.objectContaining({ path: 'background' })]);
    const unknown = await render({ target: 'a3', format: 'pdf' });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors[0].message).toContain(
      'square, portrait, landscape, og, a4',
    );
  });

  it('a PDF batch writes one .pdf a row, listed as application/pdf, with crop marks kept', async () => {
    const accepted = await createBatch(server, {
      templateId: CERTIFICATE,
      target: 'a4',
      format: 'pdf',
      cropMarks: true,
      sourceType: 'json-array',
      source: {
        records: [
          { ...sample, recipient: 'Nguyễn Văn An' },
          { ...sample, recipient: 'Trần Thị Bình' },
        ],
      },
    });
    const batch = await waitForBatch(server, accepted.id);
    expect(batch.status).toBe('succeeded');
    expect(batch.format).toBe('pdf');
    const rows = await fullManifest(server, accepted.id);
    expect(rows.map((row) => row.outputKey)).toEqual([
      expect.stringMatching(/\.0\.pdf$/),
      expect.stringMatching(/\.1\.pdf$/),
    ]);
    const output = await server.api(`/v1/outputs/${rows[1].outputKey}`);
    expect(output.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await output.arrayBuffer());
    expect(poppler('pdftotext', pdf)).toContain('Trần Thị Bình');
    expect(poppler('pdfinfo', pdf, ['-box'])).toMatch(/TrimBox:\s+25\.51/);
    const bundle = await downloadBundle(server, accepted.id);
    const names = bundle.getEntries().map((entry) => entry.entryName);
    expect(names.filter((name) => name.endsWith('.pdf'))).toHaveLength(2);
  });

  it('a multi-page layout: a zip of numbered images for one render, kept as .zip for replays', async () => {
    const badge = (await catalogDetail(server, 'tmpl_name_badge')).sampleValues;
    const body = { templateId: 'tmpl_name_badge', target: 'badge', format: 'png', values: badge };
    const headers = { 'Idempotency-Key': 'badge-pages-1' };
    const first = await server.api('/v1/render', { method: 'POST', json: body, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await first.arrayBuffer());
    const replay = await server.api('/v1/render', { method: 'POST', json: body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await replay.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a batch of a multi-page layout is one pdf a row, or images of one page', async () => {
    const badge = (await catalogDetail(server, 'tmpl_name_badge')).sampleValues;
    const request = {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      sourceType: 'json-array',
      source: { records: [{ ...badge, firstName: 'Minh' }] },
    };
    const refused = await server.api('/v1/render-batches', {
      method: 'POST',
      json: { ...request, format: 'png' },
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors[0].path).toBe('page');
    const accepted = await createBatch(server, { ...request, format: 'pdf' });
    expect((await waitForBatch(server, accepted.id)).status).toBe('succeeded');
    const [row] = await fullManifest(server, accepted.id);
    const pdf = Buffer.from(await (await server.api(`/v1/outputs/${row.outputKey}`)).arrayBuffer());
    expect(poppler('pdfinfo', pdf)).toMatch(/Pages:\s+2/);
    const back = await createBatch(server, { ...request, format: 'webp', page: 2 });
    expect((await waitForBatch(server, back.id)).status).toBe('succeeded');
  });
});
