import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_PRESETS } from '../../shared/sheet-options.js';
import {
  createBatch,
  downloadBundle,
  fullManifest,
  waitForBatch,
} from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { poppler } from '../helpers/poppler.js';
import type { Json } from '../helpers/test-server.js';

/**
 * Batches that place their rows N per printed sheet (sheets option), through the API with real
 * render threads: the bundle holds sheets-<part>.pdf, manifest.csv says where each row is, and
 * poppler finds each row's name on the page the manifest names.
 */
let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2, openingCredits: 5000 });
});
afterAll(() => server.stop());

const A4 = { width: 595.28, height: 841.89 };

function badges(n: number): Json[] {
  return Array.from({ length: n }, (_, i) => ({
    eventName: 'Hội nghị 2026',
    firstName: `Guest${i + 1}x`,
    lastName: 'Nguyễn',
    role: 'Designer',
    company: 'Acme',
    profileUrl: `https://example.com/p/${i + 1}`,
  }));
}

function csvRows(text: string): string[][] {
  return text
    .replace(/^\ufeff/, '')
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(','));
}

/** The text of page `page` (1-based) of a PDF. */
function pageText(pdf: Buffer, page: number): string {
  return poppler('pdftotext', pdf, ['-f', String(page), '-l', String(page), '-layout']);
}

describe('sheet batches', () => {
  it('puts 4 badges a sheet with duplex backs, names each row’s sheet, page and position in manifest.csv, and bundles only the sheets', async () => {
    const created = await createBatch(server, {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      format: 'pdf',
      sourceType: 'json-array',
      source: { records: badges(6) },
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge' },
    });
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({
      status: 'succeeded',
      succeeded: 6,
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge' },
    });
    const zip = await downloadBundle(server, created.id, true);
    const names = zip.getEntries().map((e) => e.entryName);
    expect(names.sort()).toEqual(['manifest.csv', 'sheets-1.pdf']);
    const pdf = zip.readFile('sheets-1.pdf')!;
    const info = poppler('pdfinfo', pdf);
    // 6 rows at 4 a sheet: 2 sheets, each a front and a back.
    expect(info).toMatch(/^Pages:\s+4$/m);
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
    expect(Number(size[1])).toBeCloseTo(A4.width, 1);
    expect(Number(size[2])).toBeCloseTo(A4.height, 1);
    const fonts = poppler('pdffonts', pdf).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font).toMatch(/\syes\s+yes\s+yes\s/);

    const manifest = csvRows(zip.readAsText('manifest.csv'));
    expect(manifest[0]).toEqual([
      'rowIndex',
      'status',
      'file',
      'error',
      'sheetFile',
      'sheet',
      'page',
      'backPage',
      'position',
    ]);
    const places = manifest.slice(1).map((cells) => cells.slice(4));
    expect(places).toEqual([
      ['sheets-1.pdf', '1', '1', '2', '1'],
      ['sheets-1.pdf', '1', '1', '2', '2'],
      ['sheets-1.pdf', '1', '1', '2', '3'],
      ['sheets-1.pdf', '1', '1', '2', '4'],
      ['sheets-1.pdf', '2', '3', '4', '1'],
      ['sheets-1.pdf', '2', '3', '4', '2'],
    ]);
    // Each row's name is on its front page and on its back page, and on no other.
    for (const [index, place] of places.entries()) {
      const name = `Guest${index + 1}x`;
      for (let page = 1; page <= 4; page++) {
        const expected = page === Number(place[2]) || page === Number(place[3]);
        expect(pageText(pdf, page).includes(name), `${name} on page ${page}`).toBe(expected);
      }
    }
  }, 120_000);

  it('splits the sheets into parts of sheetsPerPart and adds each row’s own PDF when singleFiles is asked for', async () => {
    const created = await createBatch(server, {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      format: 'pdf',
      sourceType: 'json-array',
      source: { records: badges(5) },
      sheets: { preset: 'a6-on-a4', sheetsPerPart: 1, singleFiles: true, marks: 'cut' },
    });
    const batch = await waitForBatch(server, created.id);
    expect(batch.status).toBe('succeeded');
    const zip = await downloadBundle(server, created.id, true);
    const names = zip
      .getEntries()
      .map((e) => e.entryName)
      .sort();
    expect(names).toEqual([
      '1.pdf',
      '2.pdf',
      '3.pdf',
      '4.pdf',
      '5.pdf',
      'manifest.csv',
      'sheets-1.pdf',
      'sheets-2.pdf',
    ]);
    expect(poppler('pdfinfo', zip.readFile('sheets-1.pdf')!)).toMatch(/^Pages:\s+1$/m);
    expect(pageText(zip.readFile('sheets-2.pdf')!, 1)).toContain('Guest5x');
    const manifest = csvRows(zip.readAsText('manifest.csv'));
    expect(manifest[5]!.slice(2)).toEqual(['5.pdf', '', 'sheets-2.pdf', '2', '1', '', '1']);
    // The single file is the row's own two pages.
    expect(poppler('pdfinfo', zip.readFile('3.pdf')!)).toMatch(/^Pages:\s+2$/m);
  }, 120_000);

  it('lists its parts on the batch, places each row in the manifest, and serves each part by its output key to its own key only', async () => {
    const keyOf = async (name: string) => {
      const res = await server.api('/v1/api-keys', { method: 'POST', json: { name } });
      expect(res.status).toBe(201);
      const { secret } = (await res.json()) as { secret: string };
      return (pathname: string, init: { method?: string; json?: unknown } = {}) =>
        server.api(pathname, { ...init, headers: { authorization: `Bearer ${secret}` } });
    };
    const alice = await keyOf('sheet-alice');
    const bob = await keyOf('sheet-bob');
    const res = await alice('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: 'tmpl_name_badge',
        target: 'badge',
        format: 'pdf',
        sourceType: 'json-array',
        source: { records: badges(10) },
        sheets: { preset: 'a6-on-a4', duplex: 'long-edge', sheetsPerPart: 2 },
      },
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const batch = await waitForBatch(server, id);
    // 10 rows at 4 a sheet and 2 sheets a part: 8 rows on 2 duplex sheets, then 2 on 1.
    expect(batch.sheetParts).toEqual([
      {
        part: 1,
        file: 'sheets-1.pdf',
        outputKey: `${id}.sheets-1.pdf`,
        sheets: 2,
        pages: 4,
        fronts: 2,
        backs: 2,
        rows: 8,
        perSheet: 4,
        sheetSize: { label: 'A4', width: 210, height: 297 },
      },
      expect.objectContaining({ part: 2, sheets: 1, pages: 2, rows: 2, backs: 1 }),
    ]);
    // The manifest places each row as manifest.csv does, on every page of it.
    const rows = await fullManifest(server, id, 3);
    expect(rows[9]).toMatchObject({
      rowIndex: 9,
      outputKey: null,
      fileName: null,
      sheet: { file: 'sheets-2.pdf', part: 2, sheet: 3, page: 1, backPage: 2, position: 2 },
    });
    expect(rows[5]!.sheet).toEqual({
      file: 'sheets-1.pdf',
      part: 1,
      sheet: 2,
      page: 3,
      backPage: 4,
      position: 2,
    });

    const part = await alice(`/v1/outputs/${id}.sheets-2.pdf`);
    expect(part.status).toBe(200);
    expect(part.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await part.arrayBuffer());
    expect(poppler('pdfinfo', pdf)).toMatch(/^Pages:\s+2$/m);
    expect(pageText(pdf, 1)).toContain('Guest10x');
    // Another render key's part answers as a part nobody made.
    const foreign = await bob(`/v1/outputs/${id}.sheets-1.pdf`);
    const unknown = await bob(`/v1/outputs/bat_nobody.sheets-1.pdf`);
    expect(foreign.status).toBe(404);
    expect((await foreign.text()).replaceAll(id, 'ID')).toBe(
      (await unknown.text()).replaceAll('bat_nobody', 'ID'),
    );
    // A part past the last is a 404 too.
    expect((await alice(`/v1/outputs/${id}.sheets-3.pdf`)).status).toBe(404);
  }, 120_000);

  it('refuses sheets of images, of a pixel layout, that do not fit, or duplex without a back, naming the option', async () => {
    const base = {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      format: 'pdf',
      sourceType: 'json-array',
      source: { records: badges(1) },
    };
    const cases: [Json, string, RegExp][] = [
      [{ ...base, format: 'png', page: 1, sheets: {} }, 'format', /set format to pdf/],
      [{ ...base, target: 'square', sheets: {} }, 'sheets', /pixel layout/],
      [{ ...base, sheets: { columns: 3, rows: 3 } }, 'sheets', /need .* mm/],
      [{ ...base, sheets: { preset: 'avery-l7160' } }, 'sheets.preset', /does not fit/],
    ];
    // Pre-flight says the same before any row is checked.
    for (const url of ['/v1/render-batches', '/v1/render-batches/preflight']) {
      for (const [body, path, message] of cases) {
        const res = await server.api(url, { method: 'POST', json: body });
        expect(res.status, `${url} ${JSON.stringify(body.sheets)}`).toBe(422);
        const problem = await res.json();
        const error = problem.errors.find((e: Json) => e.path === path);
        expect(error?.message, JSON.stringify(problem.errors)).toMatch(message);
      }
    }
  });

  it('lists the pages of a multi-page layout in the catalog, so a client knows when backs exist', async () => {
    const detail = await (await server.api('/v1/catalog/tmpl_name_badge')).json();
    expect(detail.layouts.badge.pages).toBe(2);
    expect(detail.layouts.square.pages).toBeUndefined();
  });

  it('shows the sheets option, its presets and duplex in the OpenAPI document', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    const text = JSON.stringify(doc);
    for (const preset of Object.keys(SHEET_PRESETS)) expect(text).toContain(preset);
    expect(text).toContain('long-edge');
    expect(text).toContain('sheetsPerPart');
  });
});
