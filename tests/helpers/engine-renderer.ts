import path from 'node:path';
import { REPO_ROOT } from '../../main/app.js';
import { loadCatalog } from '../../main/catalog/load-catalog.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { renderJob } from '../../main/engine/render-job.js';
import type { RenderPool } from '../../main/render/render-pool.js';
import type { RenderSuccess } from '../../main/render/render-protocol.js';
import { RenderService, type RenderRequestInput } from '../../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';

/** The built-in catalog, with jobs prepared in this thread and drawn by the engine directly. */
export const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));

export const renderer = new RenderService({
  templates: catalog,
  pool: undefined as unknown as RenderPool,
  brandProfile: () => EMPTY_BRAND_PROFILE,
  resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
});

/** Renders a built-in template with its sample values (and any overrides); throws on failure. */
export async function renderSample(
  templateId: string,
  request: Partial<RenderRequestInput> & Pick<RenderRequestInput, 'format'>,
): Promise<RenderSuccess> {
  const entry = catalog.get(templateId);
  if (!entry) throw new Error(`no template ${templateId}`);
  const job = renderer.prepare({
    templateId,
    values: entry.template.sampleValues,
    ...request,
  });
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}
