import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import {
  editedTemplate,
  expectProblem,
  exportPack,
  importPack,
  render,
  sha,
  snapshot,
  unzip,
} from '../packs/pack-helpers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const FAILURE_CORPUS = path.join(repoRoot, 'tests', 'fixtures', 'corpora', 'zip', 'failure');

let server: InjectServer;
/** A colleague's machine: its own data directory, nothing shared with `server`. */
let colleague: InjectServer;
let original: Json;
let pack: Buffer;

beforeAll(async () => {
  [server, colleague] = await Promise.all([buildInjectServer(), buildInjectServer()]);
  original = await editedTemplate(server);
  pack = await exportPack(server, original.id);
});
afterAll(() => Promise.all([server.stop(), colleague.stop()]));

describe('exporting a pack', () => {
  it('names the download after the template and lists every file with its sha256', async () => {
    const res = await server.api(`/v1/templates/${original.id}/pack`);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="shop-promo-dong.zip"',
    );
    const files = unzip(pack);
    const manifest = JSON.parse(files.get('pack.json')!.toString('utf8'));
    expect(manifest).toMatchObject({
      packFormat: 1,
      generator: expect.stringMatching(/^Render Desk /),
      template: { id: original.id, name: 'Shop promo Đồng', forkedFrom: 'tmpl_product_promo' },
      fonts: [],
    });
    expect(manifest.template.version).toBe(original.version);
    const assetNames = manifest.assets.map((a: Json) => a.path).sort();
    expect(assetNames).toEqual(expect.arrayContaining(['assets/logo.png', 'assets/product.jpg']));
    expect(assetNames.some((name: string) => /^assets\/upload-[0-9a-f]+\.png$/.test(name))).toBe(
      true,
    );
    for (const asset of manifest.assets) {
      expect(sha(files.get(asset.path)!)).toBe(asset.sha256);
      expect(files.get(asset.path)!.length).toBe(asset.size);
    }
    expect(sha(files.get('template.json')!)).toBe(manifest.template.sha256);
    expect(JSON.parse(files.get('template.json')!.toString('utf8'))).toEqual(original.template);
    // The built-in sample images carry their origin note; uploads are the author's.
    expect(files.get('LICENCES.md')!.toString('utf8')).toContain('CC0 1.0');
    expect([...files.keys()].sort()).toEqual(
      ['LICENCES.md', 'pack.json', 'template.json', ...assetNames].sort(),
    );
  });

  it('gives the same files when exported twice (only the export time differs)', async () => {
    const again = unzip(await exportPack(server, original.id));
    const first = unzip(pack);
    expect([...again.keys()]).toEqual([...first.keys()]);
    for (const [name, bytes] of first) {
      if (name === 'pack.json') continue;
      expect(sha(again.get(name)!), name).toBe(sha(bytes));
    }
    const strip = (bytes: Buffer) => ({ ...JSON.parse(bytes.toString('utf8')), createdAt: 0 });
    expect(strip(again.get('pack.json')!)).toEqual(strip(first.get('pack.json')!));
  });

  it('answers 404 for unknown, deleted and built-in templates', async () => {
    await expectProblem(await server.api('/v1/templates/wtpl_nope/pack'), 404, 'not-found');
    await expectProblem(
      await server.api('/v1/templates/tmpl_product_promo/pack'),
      404,
      'not-found',
    );
    const doomed = await editedTemplate(server, 'Doomed');
    expect((await server.api(`/v1/templates/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectProblem(await server.api(`/v1/templates/${doomed.id}/pack`), 404, 'not-found');
  });
});

describe('importing a pack', () => {
  it("renders byte-identical images on a colleague's machine, in every ratio", async () => {
    const res = await importPack(colleague, pack);
    expect(res.status, await res.clone().text()).toBe(201);
    const imported = await res.json();
    expect(imported.id).toMatch(/^wtpl_[0-9a-f]+$/);
    expect(res.headers.get('location')).toBe(`/v1/templates/${imported.id}`);
    expect(imported).toMatchObject({
      name: 'Shop promo Đồng',
      forkedFrom: null,
      version: 1,
      ratios: original.ratios,
    });
    expect({ ...imported.template, id: original.id }).toEqual(original.template);
    for (const ratio of original.ratios as string[]) {
      const [mine, theirs] = await Promise.all([
        render(server, original.id, ratio),
        render(colleague, imported.id, ratio),
      ]);
      expect(sha(theirs), ratio).toBe(sha(mine));
    }
  });

  it('imports on the same machine as a new template beside the original', async () => {
    const before = await snapshot(server);
    const res = await importPack(server, pack, 'application/octet-stream');
    expect(res.status).toBe(201);
    const imported = await res.json();
    expect(imported.id).not.toBe(original.id);
    const after = await snapshot(server);
    expect(after.ids).toEqual([...before.ids, imported.id].sort());
    expect(after.dirs.filter((dir) => dir.startsWith('.'))).toEqual([]);
    expect(sha(await render(server, imported.id, 'square'))).toBe(
      sha(await render(server, original.id, 'square')),
    );
  });

  it('imports a fork of a built-in template whose artwork has credits, the credits kept in LICENCES.md', async () => {
    // The quote card's folder has CREDITS.md beside its images; a fork copies it.
    const fork = await server.api('/v1/catalog/tmpl_quote_card/fork', {
      method: 'POST',
      json: { name: 'Quote with credits' },
    });
    expect(fork.status).toBe(201);
    const forked = await fork.json();
    const exported = await exportPack(server, forked.id);
    const files = unzip(exported);
    expect([...files.keys()].filter((name) => name.startsWith('assets/')).sort()).toEqual([
      'assets/author.jpg',
      'assets/logo.png',
    ]);
    const credits = fs.readFileSync(
      path.join(repoRoot, 'templates', 'catalog', 'quote-card', 'CREDITS.md'),
      'utf8',
    );
    expect(files.get('LICENCES.md')!.toString('utf8')).toContain(credits.trim());

    const res = await importPack(colleague, exported);
    expect(res.status, await res.clone().text()).toBe(201);
    const imported = await res.json();
    const drawn = async (on: InjectServer, templateId: string) => {
      const image = await on.api('/v1/render', {
        method: 'POST',
        json: { templateId, values: forked.template.sampleValues },
      });
      expect(image.status, await image.clone().text()).toBe(200);
      return sha(Buffer.from(await image.arrayBuffer()));
    };
    expect(await drawn(colleague, imported.id)).toBe(await drawn(server, forked.id));
  });

  it('refuses a body that is not sent as a zip (415) or is over 100 MiB (413)', async () => {
    await expectProblem(await importPack(server, pack, 'text/csv'), 415, 'unsupported-media-type');
    await expectProblem(
      await importPack(server, Buffer.alloc(100 * 1024 * 1024 + 1)),
      413,
      'payload-too-large',
    );
  });
});

describe('the zip failure corpus', () => {
  const files = fs.readdirSync(FAILURE_CORPUS).filter((name) => name.endsWith('.zip'));

  it('has the 24 files', () => {
    expect(files).toHaveLength(24);
  });

  it.each(files)('refuses %s with a problem, installing nothing', async (name) => {
    const before = await snapshot(server);
    const body = await expectProblem(
      await importPack(server, fs.readFileSync(path.join(FAILURE_CORPUS, name))),
      422,
    );
    // Names that point outside the archive are the pack's fault; the rest are broken zips.
    const unsafeName = /^(absolute path|invalid relative path|invalid characters)/.test(name);
    expect(body.code).toEqual(
      unsafeName
        ? 'pack-invalid'
        : expect.stringMatching(/^(invalid-archive|archive-limits-exceeded)$/),
    );
    if (process.env.PACK_DEBUG) console.log(name, '→', body.code, body.detail);
    expect(await snapshot(server)).toEqual(before);
    expect((await server.api('/v1/system')).status).toBe(200);
  });
});

describe('openapi', () => {
  it('documents both pack routes', async () => {
    const doc = await (await server.api('/v1/openapi.json')).json();
    expect(Object.keys(doc.paths['/v1/templates/{id}/pack'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/templates/import'])).toEqual(['post']);
  });
});
