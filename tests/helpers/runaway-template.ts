import { MAX_TEXT_VALUE_CHARS } from '../../main/engine/text-limits.js';
import type { ApiRequest, Json, TestResponse } from './test-server.js';

/** The api of a real server or of an in-process one. */
type Api = (pathname: string, init?: ApiRequest) => Promise<TestResponse>;

/**
 * A render that seems never to end, within every cap: a fork of the product promo whose square
 * layout draws the headline in 100 text layers, and a headline of 10,000 characters without a
 * space (each layer breaks it character by character: ~1 s apiece on a 2-core machine, ~100 s
 * in all). Also the values of a normal render of the built-in template.
 */
export async function runawayRender(api: Api): Promise<{
  runaway: { templateId: string; values: Json };
  normal: { templateId: string; values: Json };
}> {
  const forked = await api('/v1/catalog/tmpl_product_promo/fork', { method: 'POST', json: {} });
  if (forked.status !== 201)
    throw new Error(`fork failed: ${forked.status} ${await forked.text()}`);
  const fork: Json = await forked.json();
  const template: Json = fork.template;
  const square = template.layouts.square;
  const headline = square.layers.find((layer: Json) => layer.id === 'headline');
  const copies = Array.from({ length: 100 }, (_, i) => ({ ...headline, id: `headline-${i}` }));
  const patched = await api(`/v1/templates/${fork.id}`, {
    method: 'PATCH',
    json: { layouts: { ...template.layouts, square: { ...square, layers: copies } } },
  });
  if (patched.status !== 200)
    throw new Error(`edit failed: ${patched.status} ${await patched.text()}`);
  return {
    runaway: {
      templateId: fork.id,
      values: { ...template.sampleValues, headline: 'x'.repeat(MAX_TEXT_VALUE_CHARS) },
    },
    normal: { templateId: 'tmpl_product_promo', values: template.sampleValues },
  };
}
