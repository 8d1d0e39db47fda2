import type { Page } from 'playwright-core';
import { templateFields, toCsv, type TemplateFieldsJson } from './csv.js';
import { dropFile, type CoreProcess } from './harness.js';

/**
 * The batch wizard's usual start: a template's sample row made into a spreadsheet (each row
 * changed where a test wants), dropped on the wizard's drop zone, read, and optionally walked
 * to the Review step with its pre-flight done.
 */
export async function wizardWithRows(
  page: Page,
  core: CoreProcess,
  options: {
    template: string;
    /** One entry per row: the cells that differ from the sample row, by column. */
    rows: Record<string, unknown>[];
    fileName?: string;
    /** Walks Next to Review and waits for pre-flight. */
    toReview?: boolean;
  },
): Promise<{ fields: TemplateFieldsJson; columns: string[] }> {
  const fields = await templateFields(core, options.template);
  const columns = fields.fields.map((f) => f.name);
  const csv = toCsv(
    columns,
    options.rows.map((overrides) =>
      columns.map((c) => (c in overrides ? overrides[c] : fields.sampleRow[c])),
    ),
  );
  await page.goto(`${core.url}/ui/batch?template=${options.template}`);
  await page.getByTestId('dropzone').waitFor();
  await dropFile(page, '[data-testid="dropzone"]', {
    name: options.fileName ?? 'products.csv',
    type: 'text/csv',
    content: csv,
  });
  await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
  if (options.toReview) {
    for (let i = 0; i < 3; i += 1) {
      await page.getByRole('button', { name: /^(Next|Tiếp tục)$/ }).click();
    }
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });
  }
  return { fields, columns };
}
