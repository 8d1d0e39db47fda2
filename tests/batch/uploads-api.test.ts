import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { createBatch, fullManifest, upload, waitForBatch } from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { CORPORA_DIR, corpusPng } from '../helpers/image-fixtures.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let template: CatalogDetail;
let textVar: string;
let numberVar: string;
let imageVar: string;
/** Variables the test spreadsheets leave out take the template's sample values as constants. */
let photoBinding: Record<string, { constant: unknown }>;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  // The reference template: text, number and image variables, and a required photo.
  template = await catalogDetail(server, 'tmpl_product_promo');
  textVar = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!.name;
  numberVar = template.variables.find((v) => v.type === 'number')!.name;
  imageVar = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
  photoBinding = Object.fromEntries(
    template.variables
      .filter(
        (v) =>
          v.name !== textVar && v.name !== numberVar && template.sampleValues[v.name] !== undefined,
      )
      .map((v) => [v.name, { constant: template.sampleValues[v.name] }]),
  );
});
afterAll(() => server.stop());

/** "Tiêu đề,Giá" and two rows as Excel writes them in Windows-1258 (tone marks combining). */
function windows1258Csv(): Buffer {
  const tieuDe = [0x54, 0x69, 0xea, 0x75, 0x20, 0xf0, 0xea, 0xcc]; // Tiêu đề
  const gia = [0x47, 0x69, 0x61, 0xec]; // Giá
  const ao = [0xc1, 0x6f, 0x20, 0x64, 0xe0, 0x69]; // Áo dài
  const text = (s: string) => [...Buffer.from(s, 'latin1')];
  return Buffer.from([
    ...tieuDe,
    0x2c,
    ...gia,
    0x0d,
    0x0a,
    ...ao,
    0x2c,
    ...text('1250000'),
    0x0d,
    0x0a,
    ...text('Mu'),
    0x2c,
    ...text('99000'),
    0x0d,
    0x0a,
  ]);
}

describe('POST /v1/uploads', () => {
  it('reads a Windows-1258 CSV from Excel into NFC fields and rows, and a batch renders it', async () => {
    const res = await upload(server, windows1258Csv(), 'san-pham.csv', 'text/csv');
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      kind: 'csv',
      rows: 2,
      fields: ['Tiêu đề', 'Giá'],
      sourceRef: body.id,
    });
    expect(body.id).toMatch(/^upl_/);
    expect(body.preview[0]).toEqual({ 'Tiêu đề': 'Áo dài', Giá: '1250000' });

    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'csv',
      source: { sourceRef: body.id },
      bindings: { [textVar]: { field: 'Tiêu đề' }, [numberVar]: { field: 'Giá' }, ...photoBinding },
    });
    expect(created.total).toBe(2);
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 2,
    });
  });

  it('takes multipart uploads too', async () => {
    const form = new FormData();
    form.append('file', new Blob(['name,price\nA,1\nB,2\n'], { type: 'text/csv' }), 'prices.csv');
    const res = await server.api('/v1/uploads', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      kind: 'csv',
      filename: 'prices.csv',
      rows: 2,
      fields: ['name', 'price'],
    });
  });

  it('reads xlsx sheets in tab order and batches a chosen sheet', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['just notes']);
    // A sheet named like a number is still addressed by its name.
    const year = workbook.addWorksheet('2024');
    year.addRow([textVar, numberVar]);
    year.addRow(['Năm cũ', 1]);
    const products = workbook.addWorksheet('Products');
    products.addRow([textVar, numberVar]);
    products.addRow(['Bánh chưng', 150000]);
    products.addRow(['Giò lụa', 220000]);
    products.addRow(['Mứt Tết', 90000]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload(server, bytes, 'tet.xlsx');
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.kind).toBe('xlsx');
    expect(body.sheets.map((s: { name: string }) => s.name)).toEqual(['Notes', '2024', 'Products']);
    const named = await createBatch(server, {
      templateId: template.id,
      sourceType: 'xlsx',
      source: { sourceRef: body.id, sheet: '2024' },
      bindings: photoBinding,
    });
    expect(named.total).toBe(1);
    expect(await waitForBatch(server, named.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 1,
    });
    // The notes sheet has no rows, so the first sheet with rows is the default.
    expect(body).toMatchObject({ sheet: '2024', rows: 1 });
    const notes = await server.api(`/v1/uploads/${body.id}?sheet=Notes`);
    expect(notes.status).toBe(422);
    expect((await notes.json()).code).toBe('no-rows-found');
    const productsSheet = await (await server.api(`/v1/uploads/${body.id}?sheet=2`)).json();
    expect(productsSheet).toMatchObject({
      sheet: 'Products',
      rows: 3,
      fields: [textVar, numberVar],
    });

    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'xlsx',
      source: { sourceRef: body.id, sheet: 'Products' },
      bindings: photoBinding,
    });
    expect(created.total).toBe(3);
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 3,
    });
    // Without a sheet, the batch reads the sheet the upload chose (the first with rows).
    const byDefault = await createBatch(server, {
      templateId: template.id,
      sourceType: 'xlsx',
      source: { sourceRef: body.id },
      bindings: photoBinding,
    });
    expect(byDefault.total).toBe(1);
    expect(await waitForBatch(server, byDefault.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 1,
    });
    const missing = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: template.id,
        sourceType: 'xlsx',
        source: { sourceRef: body.id, sheet: 'Nope' },
      },
    });
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors[0].path).toBe('source.sheet');
  });

  it('refuses disguised, empty and row-less files with a clear code', async () => {
    const png = await upload(server, corpusPng('basn2c08.png'), 'prices.csv');
    expect(png.status).toBe(201); // a PNG is a valid image upload, whatever its name …
    expect((await png.json()).kind).toBe('image');
    const asCsv = await server.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: template.id,
        sourceType: 'csv',
        source: {
          sourceRef: (await (await upload(server, corpusPng('basn2c08.png'), 'x.csv')).json()).id,
        },
      },
    });
    expect(asCsv.status).toBe(422); // … but never a spreadsheet.

    const binary = await upload(
      server,
      Buffer.from([0, 1, 2, 3, 0, 0, 0, 0xff, 0xfe, 0, 7]),
      'data.xlsx',
    );
    expect(binary.status).toBe(415);
    expect((await binary.json()).code).toBe('unsupported-media-type');

    const headerOnly = await upload(server, Buffer.from('name,price\r\n'), 'empty.csv');
    expect(headerOnly.status).toBe(422);
    expect((await headerOnly.json()).code).toBe('no-rows-found');

    const nothing = await upload(server, Buffer.alloc(0), 'nothing.csv');
    expect(nothing.status).toBe(422);

    const snowman = await upload(
      server,
      fs.readFileSync(path.join(CORPORA_DIR, 'xlsx', 'author_snowman.xlsx')),
      'snowman.xlsx',
    );
    expect(snowman.status).toBe(422);
    expect((await snowman.json()).code).toBe('no-rows-found');
  });

  it('refuses an xlsx that inflates far beyond its size, and stays responsive', async () => {
    const row = '<row><c t="inlineStr"><is><t>' + 'A'.repeat(200) + '</t></is></c></row>';
    const sheet = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${row.repeat(100_000)}</sheetData></worksheet>`;
    const zip = new AdmZip();
    zip.addFile(
      '[Content_Types].xml',
      Buffer.from(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    );
    zip.addFile(
      '_rels/.rels',
      Buffer.from(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    );
    zip.addFile(
      'xl/workbook.xml',
      Buffer.from(
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    );
    zip.addFile(
      'xl/_rels/workbook.xml.rels',
      Buffer.from(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    );
    // ~24 MB of XML that deflates about a thousandfold: far past the ratio cap.
    zip.addFile('xl/worksheets/sheet1.xml', Buffer.from(sheet));
    const bomb = zip.toBuffer();
    expect(bomb.length).toBeLessThan(256 * 1024);
    const pending = upload(server, bomb, 'bomb.xlsx');
    const started = performance.now();
    expect((await server.api('/v1/account')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
    const res = await pending;
    expect(res.status).toBe(422);
    expect((await res.json()).code).toBe('archive-limits-exceeded');
  });
});

describe('images for rows', () => {
  it('accepts an uploaded image as an upl_ value', async () => {
    const png = await sharp({
      create: { width: 50, height: 50, channels: 3, background: '#228833' },
    })
      .png()
      .toBuffer();
    const uploaded = await (await upload(server, png, 'leaf.png', 'image/png')).json();
    expect(uploaded).toMatchObject({ kind: 'image', width: 50, height: 50 });
    const res = await server.api('/v1/render', {
      method: 'POST',
      json: {
        templateId: template.id,
        values: { ...template.sampleValues, [imageVar]: uploaded.id },
      },
    });
    expect(res.status).toBe(200);
  });

  it('resolves relative paths against an uploaded zip of images', async () => {
    const photo = await sharp({
      create: { width: 60, height: 40, channels: 3, background: '#884422' },
    })
      .jpeg()
      .toBuffer();
    const zip = new AdmZip();
    zip.addFile('photos/sku-1.jpg', photo);
    zip.addFile('photos/sku-2.jpg', photo);
    const uploaded = await (
      await upload(server, zip.toBuffer(), 'photos.zip', 'application/zip')
    ).json();
    expect(uploaded.kind).toBe('zip');
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'json-array',
      source: {
        records: [1, 2].map((i) => ({
          ...template.sampleValues,
          [imageVar]: `photos/sku-${i}.jpg`,
        })),
      },
      imagesRef: uploaded.id,
    });
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'succeeded',
      succeeded: 2,
    });
  });

  it('refuses image zips with unsafe entries, naming the reason', async () => {
    const failures = path.join(CORPORA_DIR, 'zip', 'failure');
    for (const name of ['absolute path atxt.zip', 'invalid relative path xt.zip']) {
      const uploaded = await upload(
        server,
        fs.readFileSync(path.join(failures, name)),
        name,
        'application/zip',
      );
      if (uploaded.status !== 201) {
        expect(uploaded.status).toBe(422);
        continue;
      }
      const { id } = await uploaded.json();
      const res = await server.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: template.id,
          sourceType: 'json-array',
          source: { records: [template.sampleValues] },
          imagesRef: id,
        },
      });
      expect(res.status, name).toBe(422);
      expect((await res.json()).code).toBe('invalid-archive');
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-zip-'));
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a source row the reader cannot parse', () => {
  it('fails only itself', async () => {
    const csv = `${textVar},${numberVar}\nGood,1\nBad,2,extra,cells\nFine,3\n`;
    const uploaded = await (await upload(server, Buffer.from(csv), 'ragged.csv')).json();
    const created = await createBatch(server, {
      templateId: template.id,
      sourceType: 'csv',
      source: { sourceRef: uploaded.id },
      bindings: photoBinding,
    });
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'partial',
      succeeded: 2,
      failed: 1,
    });
    const rows = await fullManifest(server, created.id);
    expect(rows[1]).toMatchObject({ status: 'failed' });
    expect(rows[1].error).toMatch(/line 3/);
  });
});
