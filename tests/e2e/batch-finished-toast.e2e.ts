import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('the end of a batch with failures', () => {
  const session = useCoreAndUi({ launch: false });

  it('is said as an error with the count of failed rows, not a green "Batch finished"', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const row = (overrides: Record<string, unknown>) =>
      columns.map((c) => (c in overrides ? overrides[c] : fields.sampleRow[c]));
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 's.csv',
      type: 'text/csv',
      content: toCsv(columns, [row({}), row({ price: 'liên hệ' })]),
    });
    await page.locator('.data-preview tbody tr').nth(1).waitFor({ timeout: 20_000 });
    for (let i = 0; i < 3; i += 1)
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    const toast = page.locator('.toast', { hasText: 'Batch finished' });
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.textContent()).toContain('1 of 2 rows failed');
    expect(await toast.getAttribute('class')).toContain('error');
    await screenshot(page, 'batch-finished-partial');
    expect(ui.consoleErrors).toEqual([]);
  });
});
