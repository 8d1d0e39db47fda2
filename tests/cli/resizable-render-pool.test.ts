import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../main/catalog/load-catalog.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { resizableRenderPool } from '../../main/cli/resizable-render-pool.js';
import { RenderService } from '../../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { REFERENCE } from '../helpers/cli-fixtures.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';

describe('resizableRenderPool', () => {
  it('renders the same bytes once sized from no threads and after growing, keeping the configured count', async () => {
    const pool = resizableRenderPool({ threads: 2, startWith: 0 });
    await pool.resize(1);
    try {
      const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
      const renderer = new RenderService({
        templates: catalog,
        pool,
        brandProfile: () => EMPTY_BRAND_PROFILE,
        resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
      });
      const job = renderer.prepare({
        templateId: REFERENCE,
        values: catalog.get(REFERENCE)!.template.sampleValues,
        format: 'png',
      });
      const small = await renderer.run(job);
      await pool.resize(2);
      const [a, b] = await Promise.all([renderer.run(job), renderer.run(job)]);
      expect(pool.threads).toBe(2);
      expect(Buffer.from(a.bytes).equals(Buffer.from(small.bytes))).toBe(true);
      expect(Buffer.from(b.bytes).equals(Buffer.from(small.bytes))).toBe(true);
      // Asking for more threads than configured is capped, and the pool keeps rendering.
      await pool.resize(8);
      expect((await renderer.run(job)).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
