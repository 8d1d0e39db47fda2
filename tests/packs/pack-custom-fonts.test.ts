import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BE_VIETNAM_PRO, MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import {
  expectProblem,
  exportPack,
  importPack,
  render,
  sha,
  snapshot,
  SOURCE,
  unzip,
} from './pack-helpers.js';

const FAMILY = 'Pack Display';

let author: InjectServer;
let colleague: InjectServer;
let clash: InjectServer;
let original: Json;
let pack: Buffer;

function uploadFont(server: InjectServer, bytes: Buffer) {
  return server.api('/v1/fonts?name=pack-display.ttf', {
    method: 'POST',
    headers: { 'content-type': 'font/ttf' },
    body: bytes,
  });
}

/** A fork of the product promo whose headline uses an uploaded font, in every ratio. */
async function templateWithCustomFont(server: InjectServer): Promise<Json> {
  expect((await uploadFont(server, testFont(BE_VIETNAM_PRO, FAMILY))).status).toBe(201);
  const created = await (
    await server.api(`/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: {} })
  ).json();
  const layouts = structuredClone(created.template.layouts);
  for (const layout of Object.values(layouts) as Json[]) {
    layout.layers.find((l: Json) => l.id === 'headline').font.family = FAMILY;
  }
  const saved = await server.api(`/v1/templates/${created.id}`, {
    method: 'PATCH',
    json: { layouts },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return saved.json();
}

beforeAll(async () => {
  [author, colleague, clash] = await Promise.all([
    buildInjectServer(),
    buildInjectServer(),
    buildInjectServer(),
  ]);
  original = await templateWithCustomFont(author);
  pack = await exportPack(author, original.id);
});
afterAll(() => Promise.all([author.stop(), colleague.stop(), clash.stop()]));

describe('a template pack with a custom font', () => {
  it('carries the font file with its family in the manifest', () => {
    const files = unzip(pack);
    const manifest = JSON.parse(files.get('pack.json')!.toString('utf8'));
    expect(manifest.fonts).toEqual([
      expect.objectContaining({ family: FAMILY, weight: 400, style: 'normal', format: 'ttf' }),
    ]);
    expect(files.has(manifest.fonts[0].path)).toBe(true);
  });

  it("installs the font on a colleague's machine and renders byte-identical images", async () => {
    const res = await importPack(colleague, pack);
    expect(res.status, await res.clone().text()).toBe(201);
    const imported = await res.json();
    const fonts = await (await colleague.api('/v1/fonts')).json();
    expect(fonts.families.map((f: Json) => f.family)).toContain(FAMILY);
    for (const ratio of original.ratios as string[]) {
      expect(sha(await render(colleague, imported.id, ratio)), ratio).toBe(
        sha(await render(author, original.id, ratio)),
      );
    }
    // The headline really is drawn with the custom font, not the fallback.
    const withBundledFont = await render(author, SOURCE, 'square');
    expect(sha(await render(colleague, imported.id, 'square'))).not.toBe(sha(withBundledFont));
  });

  it('reuses the font when the same file is installed already', async () => {
    const res = await importPack(colleague, pack);
    expect(res.status).toBe(201);
    const fonts = await (await colleague.api('/v1/fonts')).json();
    const family = fonts.families.find((f: Json) => f.family === FAMILY);
    expect(family.faces).toHaveLength(1);
  });

  it('refuses the pack (409) when another font of the same family and style is installed', async () => {
    expect((await uploadFont(clash, testFont(MONTSERRAT, FAMILY))).status).toBe(201);
    const before = await snapshot(clash);
    const body = await expectProblem(await importPack(clash, pack), 409, 'conflict');
    expect(body.detail).toContain(FAMILY);
    expect(await snapshot(clash)).toEqual(before);
  });
});
