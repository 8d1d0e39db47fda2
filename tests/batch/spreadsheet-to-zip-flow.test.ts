import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/spawn-serve.js';
import { testFetch, type Json } from '../helpers/test-server.js';

/**
 * The "done when", at a small size: a Vietnamese shop's CSV saved by Excel in
 * Windows-1258 is uploaded, mapped, pre-flighted and run; the server is killed with SIGKILL
 * halfway and restarted; the zip then holds every row, each image equal to the single render of
 * its row, and exactly one credit was spent per image.
 */
const KEY = 'rdk_flow_test_key_0123456789';
const ROWS = 80;

const serve = (dataDir: string) =>
  spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '500' });

/** Encodes Vietnamese the way Excel's "CSV" does on a Vietnamese Windows: code page 1258. */
function windows1258(text: string): Buffer {
  const table: Record<string, number[]> = {
    ả: [0x61, 0xd2],
    á: [0x61, 0xec],
    à: [0x61, 0xcc],
    ạ: [0x61, 0xf2],
    ã: [0x61, 0xde],
    ế: [0xea, 0xec],
    ề: [0xea, 0xcc],
    ể: [0xea, 0xd2],
    ệ: [0xea, 0xf2],
    ê: [0xea],
    ô: [0xf4],
    Ô: [0xd4],
    ơ: [0xf5],
    ư: [0xfd],
    ữ: [0xfd, 0xde],
    ữ: [0xfd, 0xde],
    ứ: [0xfd, 0xec],
    ừ: [0xfd, 0xcc],
    đ: [0xf0],
    Đ: [0xd0],
    ă: [0xe3],
    ắ: [0xe3, 0xec],
    ố: [0xf4, 0xec],
    ồ: [0xf4, 0xcc],
    ộ: [0xf4, 0xf2],
    í: [0x69, 0xec],
    ì: [0x69, 0xcc],
    ị: [0x69, 0xf2],
    ó: [0x6f, 0xec],
    ò: [0x6f, 0xcc],
    ọ: [0x6f, 0xf2],
    ú: [0x75, 0xec],
    ù: [0x75, 0xcc],
    ụ: [0x75, 0xf2],
    ớ: [0xf5, 0xec],
    ờ: [0xf5, 0xcc],
    ợ: [0xf5, 0xf2],
  };
  const bytes: number[] = [];
  for (const char of text.normalize('NFC')) {
    const mapped = table[char];
    if (mapped) bytes.push(...mapped);
    else if (char.charCodeAt(0) < 0x80) bytes.push(char.charCodeAt(0));
    else throw new Error(`the test table lacks ${char}`);
  }
  return Buffer.from(bytes);
}

const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('spreadsheet to zip, through a crash', () => {
  it('renders every row of a Windows-1258 CSV once, survives kill -9, and zips images equal to single renders', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-flow-'));
    let server = await serve(dataDir);
    const api = (pathname: string, init: RequestInit = {}) =>
      testFetch(server.url + pathname, {
        ...init,
        headers: { authorization: `Bearer ${KEY}`, ...(init.headers ?? {}) },
      });
    try {
      const names = ['Bánh chưng', 'Giò lụa', 'Mứt Tết', 'Hạt điều', 'Trà Ô Long', 'Rượu nếp'];
      const lines = ['Tiêu đề;Giá;Ghi chú'];
      for (let i = 0; i < ROWS; i += 1)
        lines.push(`${names[i % names.length]} ${i + 1};${150000 + i * 1000};Quà biếu`);
      const csv = windows1258(lines.join('\r\n') + '\r\n');

      const uploaded = await (
        await api('/v1/uploads?filename=tet.csv', {
          method: 'POST',
          body: csv,
          headers: { 'content-type': 'text/csv' },
        })
      ).json();
      expect(uploaded).toMatchObject({
        kind: 'csv',
        rows: ROWS,
        fields: ['Tiêu đề', 'Giá', 'Ghi chú'],
        delimiter: ';',
      });

      const tet = await (await api('/v1/catalog/tmpl_tet_sale')).json();
      const textVar =
        tet.variables.find((v: Json) => v.type === 'text' && !v.bindsTo && v.required)?.name ??
        tet.variables.find((v: Json) => v.type === 'text' && !v.bindsTo).name;
      const priceVar =
        tet.variables.find((v: Json) => v.type === 'number' && /price|gia/i.test(v.name))?.name ??
        tet.variables.find((v: Json) => v.type === 'number').name;
      const mapped = new Set([textVar, priceVar]);
      const bindings: Record<string, unknown> = {
        [textVar]: { field: 'Tiêu đề' },
        [priceVar]: { field: 'Giá' },
      };
      for (const v of tet.variables)
        if (!mapped.has(v.name) && tet.sampleValues[v.name] !== undefined)
          bindings[v.name] = { constant: tet.sampleValues[v.name] };
      const body = {
        templateId: 'tmpl_tet_sale',
        target: 'square',
        sourceType: 'csv',
        source: { sourceRef: uploaded.id },
        bindings,
      };

      const preflight = await (
        await api('/v1/render-batches/preflight', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
      ).json();
      expect(preflight).toMatchObject({ total: ROWS, invalid: 0, cost: ROWS, sufficient: true });

      const created = await (
        await api('/v1/render-batches', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
      ).json();
      for (;;) {
        const batch = await (await api(`/v1/render-batches/${created.id}`)).json();
        if (batch.succeeded >= ROWS / 4) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));
      server = await serve(dataDir);

      let batch: Json;
      for (;;) {
        batch = await (await api(`/v1/render-batches/${created.id}`)).json();
        if (!['queued', 'running'].includes(batch.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(batch).toMatchObject({ status: 'succeeded', total: ROWS, succeeded: ROWS, failed: 0 });
      const account = await (await api('/v1/account')).json();
      expect(account).toMatchObject({ balance: 500 - ROWS, heldCredits: 0 });

      const link = await (
        await api(`/v1/render-batches/${created.id}/bundle?manifest=true`)
      ).json();
      const download = await testFetch(link.url);
      // Saved as the template and the source, with the id for clients that read no filename*.
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="${created.id}.zip"; filename*=UTF-8''${encodeURIComponent('Khuyến mãi Tết - tet.zip')}`,
      );
      const zip = new AdmZip(Buffer.from(await download.arrayBuffer()));
      const images = zip.getEntries().filter((e) => e.entryName.endsWith('.png'));
      expect(images.map((e) => e.entryName).sort()).toEqual(
        // Unnamed outputs are numbered as the spreadsheet counts rows: row index 0 is 1.png.
        [...Array(ROWS).keys()].map((i) => `${i + 1}.png`).sort(),
      );
      expect(zip.readAsText('manifest.csv').trim().split('\r\n')).toHaveLength(ROWS + 1);

      // Each image equals the single render of its row (a sample of rows, each a paid render).
      for (const rowIndex of [0, 1, ROWS / 2, ROWS - 1]) {
        const values: Record<string, unknown> = {};
        for (const [name, binding] of Object.entries(bindings) as [string, Json][]) {
          values[name] =
            'constant' in binding
              ? binding.constant
              : binding.field === 'Giá'
                ? 150000 + rowIndex * 1000
                : `${names[rowIndex % names.length]} ${rowIndex + 1}`;
        }
        const single = await api('/v1/render', {
          method: 'POST',
          body: JSON.stringify({ templateId: 'tmpl_tet_sale', target: 'square', values }),
          headers: { 'content-type': 'application/json' },
        });
        expect(single.status).toBe(200);
        expect(sha(Buffer.from(await single.arrayBuffer())), `row ${rowIndex}`).toBe(
          sha(zip.getEntry(`${rowIndex + 1}.png`)!.getData()),
        );
      }
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
