import path from 'node:path';
import { ROOT, type CoreProcess } from './harness.js';

export { toCsv } from '../helpers/to-csv.js';

/** A real product photo shipped with the catalog: rows name copies of it in an images folder. */
export const SAMPLE_PHOTO = path.join(ROOT, 'templates', 'catalog', 'product-promo', 'product.jpg');

export interface TemplateFieldsJson {
  templateId: string;
  fields: { name: string; type: string; label?: string; required: boolean; example: unknown }[];
  sampleRow: Record<string, unknown>;
}

export async function templateFields(
  core: CoreProcess,
  templateId: string,
): Promise<TemplateFieldsJson> {
  const res = await core.api(`/v1/render-batches/template-fields?templateId=${templateId}`);
  if (res.status !== 200) throw new Error(`template-fields answered ${res.status}`);
  return (await res.json()) as TemplateFieldsJson;
}
