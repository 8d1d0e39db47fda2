import path from 'node:path';
import type { Page } from 'playwright-core';
import { toCsv } from '../helpers/to-csv.js';
import { dropFile, ROOT, type CoreProcess } from './harness.js';

export { toCsv };

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

/**
 * The wizard opened on a template with a one-row CSV of its sample values dropped on it, as a
 * user drops a file; returns once the file is read and its rows are shown.
 */
export async function dropSampleCsv(
  page: Page,
  core: CoreProcess,
  templateId: string,
): Promise<void> {
  const fields = await templateFields(core, templateId);
  const columns = fields.fields.map((f) => f.name);
  await page.goto(`${core.url}/ui/batch?template=${templateId}`);
  await page.getByTestId('dropzone').waitFor();
  await dropFile(page, '[data-testid="dropzone"]', {
    name: 'sale.csv',
    type: 'text/csv',
    content: toCsv(columns, [columns.map((c) => fields.sampleRow[c])]),
  });
  await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
}

/** A square batch of `records` (inline JSON rows) started through the API; its id. */
export async function startRecordsBatch(
  core: CoreProcess,
  templateId: string,
  records: Record<string, unknown>[],
  output: { scale?: number } = {},
): Promise<string> {
  const created = await core.api('/v1/render-batches', {
    method: 'POST',
    json: {
      templateId,
      target: 'square',
      sourceType: 'json-array',
      source: { records },
      ...output,
    },
  });
  if (created.status !== 202)
    throw new Error(`the batch was refused (${created.status}): ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}
