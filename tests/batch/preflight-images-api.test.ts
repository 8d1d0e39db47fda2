import AdmZip from 'adm-zip';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { upload } from '../helpers/batch-helpers.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let template: CatalogDetail;
let imageVar: string;

beforeAll(async () => {
  server = await buildInjectServer();
  template = await catalogDetail(server, 'tmpl_product_promo');
  imageVar = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
});
afterAll(() => server.stop());

const photo = (colour: string) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
    .png()
    .toBuffer();

function preflight(body: Record<string, unknown>) {
  return server.api('/v1/render-batches/preflight', {
    method: 'POST',
    json: { templateId: template.id, sourceType: 'json-array', ...body },
  });
}

const rows = (images: string[]) => ({
  records: images.map((image) => ({ ...template.sampleValues, [imageVar]: image })),
});

describe('pre-flight of a batch whose images come as a zip (imagesRef)', () => {
  it('finds the images in the zip as the batch would, and reports the ones it lacks', async () => {
    const zip = new AdmZip();
    zip.addFile('photos/a.png', await photo('#c63'));
    zip.addFile(
      'logo.svg',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="../../uploads/x.png"/></svg>',
      ),
    );
    const uploaded = await (await upload(server, zip.toBuffer(), 'images.zip')).json();
    const res = await preflight({
      source: rows(['photos/a.png', 'photos/missing.png', 'logo.svg']),
      imagesRef: uploaded.id,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const result = await res.json();
    expect(result).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(result.problems.map((p: { rowIndex: number }) => p.rowIndex)).toEqual([1, 2]);
    expect(result.problems[0].errors[0].message).toMatch(/not in the images folder/);
    expect(result.problems[1].errors[0].message).toMatch(/references "..\/..\/uploads\/x.png"/);
    // The zip was unpacked for the check only.
    const scratch = path.join(server.dataDir, 'cache', 'preflight');
    expect(fs.readdirSync(scratch)).toEqual([]);
  });

  it('refuses an imagesRef that is not an uploaded zip, as batch create does', async () => {
    const csv = await (await upload(server, Buffer.from('name\nx\n'), 'a.csv')).json();
    for (const imagesRef of [csv.id, 'upl_unknown']) {
      const problem = await expectProblem(
        await preflight({ source: rows(['a.png']), imagesRef }),
        422,
        'validation-failed',
      );
      expect(problem.errors?.[0]?.path).toBe('imagesRef');
    }
  });
});

describe('pre-flight of images given as data: URIs', () => {
  it('checks each image by its content, even when two share their size and first bytes', async () => {
    const good = await photo('#36c');
    // The same length and header, but the pixel data is damaged: its checksum no longer matches.
    const damaged = Buffer.from(good);
    const idat = damaged.indexOf('IDAT', 0, 'latin1');
    damaged[idat + 8] = damaged[idat + 8]! ^ 0xff;
    const uri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
    const result = await (await preflight({ source: rows([uri(good), uri(damaged)]) })).json();
    expect(result).toMatchObject({ total: 2, valid: 1, invalid: 1 });
    expect(result.problems[0]).toMatchObject({ rowIndex: 1 });
    expect(result.problems[0].errors[0].message).toMatch(/cannot be read/);
  });
});
