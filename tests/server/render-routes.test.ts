import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { catalogDetail, findTemplate, listCatalog } from '../helpers/catalog-probe.js';
import { forgedPng } from '../helpers/forged-png.js';
import { corpusPng, dataUri } from '../helpers/image-fixtures.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { TestResponse } from '../helpers/test-server.js';

let server: InjectServer;
let textTemplate: CatalogDetail;
let textVar: string;
let imageTemplate: CatalogDetail;
let imageVar: string;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2 });
  textTemplate = await findTemplate(server, (d) => d.variables.some((v) => v.type === 'text'));
  textVar = textTemplate.variables.find((v) => v.type === 'text')!.name;
  imageTemplate = await findTemplate(server, (d) =>
    d.variables.some((v) => v.type === 'image' && !v.bindsTo),
  );
  imageVar = imageTemplate.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
});
afterAll(() => server.stop());

const balance = async () => (await (await server.api('/v1/account')).json()).balance as number;
const sha = (bytes: ArrayBuffer) =>
  crypto.createHash('sha256').update(Buffer.from(bytes)).digest('hex');

function render(body: unknown, headers: Record<string, string> = {}) {
  return server.api('/v1/render', { method: 'POST', json: body, headers });
}

async function expectProblem(res: TestResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = await res.json();
  expect(body).toMatchObject({ status, code });
  expect(typeof body.detail).toBe('string');
  return body as { errors?: { path: string; message: string }[]; detail: string };
}

describe('POST /v1/render', () => {
  it('renders every template in every ratio at the ratio size, one credit each', async () => {
    const items = await listCatalog(server);
    expect(items.length).toBeGreaterThanOrEqual(8);
    for (const item of items) {
      const detail = await catalogDetail(server, item.id);
      for (const ratio of detail.ratios) {
        const before = await balance();
        const res = await render({
          templateId: item.id,
          target: ratio,
          values: detail.sampleValues,
        });
        expect(res.status, `${item.id} ${ratio}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(res.headers.get('x-render-id')).toMatch(/^rnd_/);
        const png = Buffer.from(await res.arrayBuffer());
        const meta = await sharp(png).metadata();
        expect([meta.width, meta.height]).toEqual([
          detail.layouts[ratio]!.width,
          detail.layouts[ratio]!.height,
        ]);
        expect(Number(res.headers.get('x-credits-remaining'))).toBe(before - 1);
        expect(await balance()).toBe(before - 1);
      }
    }
    // 41 templates with print layouts: a few hundred renders one after the other.
  }, 300_000);

  it('renders jpeg and webp on request', async () => {
    for (const [format, type] of [
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
    ] as const) {
      const res = await render({
        templateId: textTemplate.id,
        values: textTemplate.sampleValues,
        format,
        quality: 80,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe(format);
    }
  });

  it('gives byte-identical output for the same values on every render', async () => {
    const body = { templateId: textTemplate.id, values: textTemplate.sampleValues };
    const hashes = new Set<string>();
    for (let i = 0; i < 4; i += 1) hashes.add(sha(await (await render(body)).arrayBuffer()));
    expect(hashes.size).toBe(1);
  });

  it('renders decomposed (NFD) Vietnamese identically to precomposed (NFC)', async () => {
    const text = 'Khuyến mãi Tết — Ắ Ẫ Ệ Ỗ Ự đồng';
    const nfc = await render({
      templateId: textTemplate.id,
      values: { ...textTemplate.sampleValues, [textVar]: text.normalize('NFC') },
    });
    const nfd = await render({
      templateId: textTemplate.id,
      values: { ...textTemplate.sampleValues, [textVar]: text.normalize('NFD') },
    });
    expect(nfc.status).toBe(200);
    expect(sha(await nfc.arrayBuffer())).toBe(sha(await nfd.arrayBuffer()));
  });

  it('names the characters no font can draw in x-missing-glyphs, and only then', async () => {
    const drawable = await render({
      templateId: textTemplate.id,
      values: { ...textTemplate.sampleValues, [textVar]: 'Xin chào 🎉' },
    });
    expect(drawable.status).toBe(200);
    expect(drawable.headers.get('x-missing-glyphs')).toBeNull();
    const blank = await render({
      templateId: textTemplate.id,
      values: { ...textTemplate.sampleValues, [textVar]: 'Xin chào 漢字' },
    });
    expect(blank.status).toBe(200);
    expect(blank.headers.get('x-missing-glyphs')).toBe('U+6F22 U+5B57');
  });

  it('renders a 300-character text in a short headline instead of refusing it', async () => {
    const res = await render({
      templateId: textTemplate.id,
      values: {
        ...textTemplate.sampleValues,
        [textVar]: 'Ưu đãi cực lớn '.repeat(20).slice(0, 300),
      },
    });
    expect(res.status).toBe(200);
  });

  it('accepts an image as a data URI and as an absolute path', async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rd-img-')), 'photo.png');
    fs.writeFileSync(file, png);
    for (const value of [dataUri('image/png', png), file]) {
      const res = await render({
        templateId: imageTemplate.id,
        values: { ...imageTemplate.sampleValues, [imageVar]: value },
      });
      expect(res.status).toBe(200);
    }
  });
});

describe('POST /v1/render with bad input charges nothing and explains the problem', () => {
  async function expectRefused(body: unknown, status: number, code: string, pathPrefix?: string) {
    const before = await balance();
    const problem = await expectProblem(await render(body), status, code);
    if (pathPrefix)
      expect(problem.errors?.map((e) => e.path)).toContainEqual(
        expect.stringContaining(pathPrefix),
      );
    expect(await balance()).toBe(before);
    return problem;
  }

  it('400 for malformed JSON', async () => {
    const res = await server.api('/v1/render', {
      method: 'POST',
      body: '{"templateId": "tmpl_x", values: }',
      headers: { 'content-type': 'application/json' },
    });
    await expectProblem(res, 400, 'malformed-json');
  });

  it('404 for an unknown template', async () => {
    await expectRefused({ templateId: 'tmpl_does_not_exist', values: {} }, 404, 'not-found');
  });

  it('422 for an unknown ratio, naming the ratios there are', async () => {
    const problem = await expectRefused(
      { templateId: textTemplate.id, target: 'banner', values: {} },
      422,
      'validation-failed',
      'target',
    );
    expect(problem.detail).toContain('square');
  });

  it('422 listing every wrong type, missing required value and unknown variable with its path', async () => {
    const values: Record<string, unknown> = { notAVariable: 'x' };
    const detail = await findTemplate(
      server,
      (d) => d.variables.some((v) => v.type === 'number') && d.variables.some((v) => v.required),
    );
    const numberVar = detail.variables.find((v) => v.type === 'number')!.name;
    values[numberVar] = 'twelve';
    const problem = await expectRefused(
      { templateId: detail.id, values },
      422,
      'validation-failed',
    );
    const paths = problem.errors!.map((e) => e.path);
    expect(paths).toContain('values.notAVariable');
    expect(paths).toContain(`values.${numberVar}`);
    for (const v of detail.variables.filter(
      (v) => v.required && v.default === undefined && !v.bindsTo,
    )) {
      if (v.name !== numberVar) expect(paths).toContain(`values.${v.name}`);
    }
  });

  it('422 for a text value that is not a string', async () => {
    await expectRefused(
      {
        templateId: textTemplate.id,
        values: { ...textTemplate.sampleValues, [textVar]: { a: 1 } },
      },
      422,
      'validation-failed',
      `values.${textVar}`,
    );
  });

  const badImages: [string, () => string, string][] = [
    [
      'a data URI that is not an image',
      () => dataUri('image/png', 'hello, not a png'),
      'image-invalid',
    ],
    [
      'a truncated PNG',
      () => dataUri('image/png', corpusPng('basn2c08.png').subarray(0, 120)),
      'image-invalid',
    ],
    [
      'a PNG claiming 30000×30000 pixels',
      () => dataUri('image/png', forgedPng(30000, 30000)),
      'image-invalid',
    ],
    [
      'a corrupt PNG from PngSuite',
      () => dataUri('image/png', corpusPng('xcsn0g01.png')),
      'image-invalid',
    ],
    [
      'a data:text/html URI',
      () => dataUri('text/html', '<script>alert(1)</script>'),
      'image-invalid',
    ],
    [
      'an SVG with an external reference',
      () =>
        dataUri(
          'image/svg+xml',
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
        ),
      'svg-external-reference',
    ],
    ['a directory path', () => os.tmpdir(), 'image-invalid'],
    [
      'a missing file',
      () => path.join(os.tmpdir(), 'render-desk-no-such-file.png'),
      'image-invalid',
    ],
    ['a remote URL', () => 'http://169.254.169.254/latest', 'url-not-allowed'],
  ];
  for (const [what, value, code] of badImages) {
    it(`422 ${code} for ${what}, naming the value once`, async () => {
      const problem = await expectRefused(
        {
          templateId: imageTemplate.id,
          values: { ...imageTemplate.sampleValues, [imageVar]: value() },
        },
        422,
        code,
      );
      expect(problem.detail).toMatch(new RegExp(`^values\\.${imageVar}: `));
      expect(problem.detail).not.toContain(`values.${imageVar}: values.${imageVar}`);
    });
  }

  it("422 path-not-allowed for a path into the app's data folder, also through a symbolic link", async () => {
    const database = path.join(server.dataDir, 'render-desk.db');
    const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rd-link-')), 'innocent.png');
    fs.symlinkSync(database, link);
    for (const value of [database, link]) {
      const problem = await expectRefused(
        {
          templateId: imageTemplate.id,
          values: { ...imageTemplate.sampleValues, [imageVar]: value },
        },
        422,
        'path-not-allowed',
        `values.${imageVar}`,
      );
      expect(problem.detail).toContain('data folder');
    }
  });

  it('413 for a body over the limit', async () => {
    const res = await server.api('/v1/render', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        templateId: textTemplate.id,
        values: { [textVar]: 'x'.repeat(33 * 1024 * 1024) },
      }),
    });
    await expectProblem(res, 413, 'payload-too-large');
  });

  it('400 for an Idempotency-Key over 255 characters', async () => {
    const res = await render(
      { templateId: textTemplate.id, values: textTemplate.sampleValues },
      { 'idempotency-key': 'k'.repeat(256) },
    );
    await expectProblem(res, 400, 'invalid-idempotency-key');
  });

  it('keeps serving after all of the above', async () => {
    expect(
      (await render({ templateId: textTemplate.id, values: textTemplate.sampleValues })).status,
    ).toBe(200);
  });
});
