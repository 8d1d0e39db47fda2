import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../main/app.js';
import { loadCatalog } from '../../main/catalog/load-catalog.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { renderJob } from '../../main/engine/render-job.js';
import { createRenderPool } from '../../main/render/render-pool.js';
import type { RenderJob } from '../../main/render/render-protocol.js';
import { RenderService } from '../../main/render/render-service.js';
import { receiveTemplate, shareTemplate } from '../../main/render/shared-templates.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import type { Template } from '../../shared/template-format.js';

const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
const reference = catalog.get('tmpl_product_promo')!.template;
const other = catalog.get('tmpl_sale_banner')?.template ?? catalog.list()[1]!.template;

describe('templates shared with the render workers', () => {
  it('serialises a template once and gives each template object its own key', () => {
    const first = shareTemplate(reference);
    expect(first.bytes).toBeInstanceOf(SharedArrayBuffer);
    expect(shareTemplate(reference)).toBe(first);
    const copy = structuredClone(reference);
    expect(shareTemplate(copy).key).not.toBe(first.key);
  });

  it('reads back an equal template, deserialised once per thread', () => {
    const shared = shareTemplate(other);
    const received = receiveTemplate(shared);
    expect(received).toEqual(other);
    expect(received).not.toBe(other);
    expect(receiveTemplate(shared)).toBe(received);
  });

  it('forgets the least recently used template beyond its limit', () => {
    const drafts = Array.from({ length: 70 }, (_, i) => ({ ...reference, name: `Draft ${i}` }));
    const shared = drafts.map((draft) => shareTemplate(draft as Template));
    const first = receiveTemplate(shared[0]!);
    for (const one of shared.slice(1)) receiveTemplate(one);
    const again = receiveTemplate(shared[0]!);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});

describe('rendering through the pool with shared templates', () => {
  const pool = createRenderPool({ threads: 2 });
  afterAll(() => pool.close());
  const renderer = new RenderService({
    templates: catalog,
    pool,
    brandProfile: () => EMPTY_BRAND_PROFILE,
    resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
  });
  const jobFor = (template: Template): RenderJob => ({
    ...renderer.prepare({
      templateId: reference.id,
      values: reference.sampleValues,
      target: 'square',
      format: 'png',
    }),
    template,
  });

  it('draws the same bytes as the engine in this thread, and a changed copy differently', async () => {
    const inThread = await renderJob(jobFor(reference));
    if (!inThread.ok) throw new Error(inThread.message);
    // Several rounds, so both workers see the template and then use what they kept.
    const pooled = await Promise.all(
      Array.from({ length: 6 }, () => renderer.run(jobFor(reference))),
    );
    for (const result of pooled)
      expect(Buffer.from(result.bytes)).toEqual(Buffer.from(inThread.bytes));

    // An edited template is a new object: the workers must draw the edit, not what they kept.
    const edited = structuredClone(reference);
    edited.layouts.square!.layers.pop();
    const changed = await renderer.run(jobFor(edited));
    expect(Buffer.from(changed.bytes)).not.toEqual(Buffer.from(inThread.bytes));
    const original = await renderer.run(jobFor(reference));
    expect(Buffer.from(original.bytes)).toEqual(Buffer.from(inThread.bytes));
  });
});
