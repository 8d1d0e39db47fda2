import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

let server: InjectServer;
let template: CatalogDetail;

beforeAll(async () => {
  server = await buildInjectServer();
  template = await catalogDetail(server, 'tmpl_product_promo');
});
afterAll(() => server.stop());

describe('an imagesDir on the data folder', () => {
  it('is refused with 422 path-not-allowed by batch create and pre-flight, before anything is held', async () => {
    const dataDir = server.dataDir;
    const imageVar = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!.name;
    const balance = async () => (await (await server.api('/v1/account')).json()).heldCredits;
    const heldBefore = await balance();
    for (const imagesDir of [dataDir, path.dirname(dataDir), path.join(dataDir, 'uploads')]) {
      fs.mkdirSync(imagesDir, { recursive: true });
      const body = {
        templateId: template.id,
        sourceType: 'json-array',
        source: { records: [{ ...template.sampleValues, [imageVar]: 'render-desk.db' }] },
        imagesDir,
      };
      for (const url of ['/v1/render-batches', '/v1/render-batches/preflight']) {
        const problem = await expectProblem(
          await server.api(url, { method: 'POST', json: body }),
          422,
          'path-not-allowed',
        );
        expect(problem.errors?.[0]?.path).toBe('imagesDir');
        expect(problem.detail).toMatch(/data folder/);
      }
    }
    expect(await (await server.api('/v1/render-batches')).json()).toEqual([]);
    expect(await balance()).toBe(heldBefore);
  });
});
