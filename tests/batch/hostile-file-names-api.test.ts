import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let template: CatalogDetail;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  template = await catalogDetail(server, 'tmpl_product_promo');
});
afterAll(() => server.stop());

/** Entry names as the zip stores them (raw bytes), read from its central directory. */
function centralDirectoryNames(zip: Buffer): Buffer[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(-1);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

describe('bundles of batches named by hostile cells', () => {
  it('streams with 200 and gives every entry a name a file system can create', async () => {
    const names = [
      // One letter under 20,000 combining marks: one grapheme of 40 KB.
      'q' + '\u0301'.repeat(20_000),
      '👩🏽‍💻'.repeat(200),
      'invoice\u202egnp.exe',
      '\u200b\u200d\u2060',
      'CON',
      'nul .tar.gz',
      'COM¹',
      'Áo dài',
      'ÁO DÀI\u200b',
    ];
    const created = await createBatch(server, {
      templateId: template.id,
      target: 'square',
      sourceType: 'json-array',
      source: { records: names.map((name) => ({ ...template.sampleValues, name })) },
      fileNamePattern: '{name}',
    });
    const batch = await waitForBatch(server, created.id);
    expect(batch.status).toBe('succeeded');

    const expected = [
      'q.png',
      `${'👩🏽‍💻'.repeat(13)}.png`,
      'invoicegnp.exe.png',
      '4.png',
      '_CON.png',
      '_nul .tar.gz.png',
      '_COM¹.png',
      'Áo dài.png',
      'ÁO DÀI-2.png',
    ];
    const manifest = await fullManifest(server, created.id);
    expect(manifest.map((row) => row.fileName)).toEqual(expected);

    const link = await (
      await server.api(`/v1/render-batches/${created.id}/bundle?manifest=true`)
    ).json();
    const res = await server.fetch(link.url);
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    const entries = centralDirectoryNames(zip);
    expect(entries.map((name) => name.toString('utf8'))).toEqual([...expected, 'manifest.csv']);
    for (const name of entries) expect(name.length).toBeLessThanOrEqual(255);
  }, 120_000);
});
