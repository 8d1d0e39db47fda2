import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('a required variable without a source', () => {
  const session = useCoreAndUi({ launch: false });

  it('blocks Next until it is mapped, blocks Start with no row ready, and reruns a finished batch with a changed mapping', async () => {
    const { core, ui } = session;
    const { page } = ui;
    // No column matches the required product name: the names sit in "ten", "ghichu" has one
    // of them and "trong" none.
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name).filter((c) => c !== 'productName');
    const header = [...columns, 'ten', 'ghichu', 'trong'];
    const rows = [
      [...columns.map((c) => fields.sampleRow[c]), 'Nồi chiên', 'Nồi chiên', ''],
      [...columns.map((c) => fields.sampleRow[c]), 'Máy xay', '', ''],
    ];
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: toCsv(header, rows),
    });
    await page.locator('.data-preview tbody tr').nth(1).waitFor({ timeout: 20_000 });
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();

    const select = page.locator('#map-productName');
    await select.waitFor();
    expect(await next.isDisabled()).toBe(true);
    expect(await page.getByTestId('wizard-missing').textContent()).toContain('Tên sản phẩm');
    expect(await page.getByRole('button', { name: /Review/ }).isDisabled()).toBe(true);
    await screenshot(page, 'unmapped-blocked');

    // Mapped to an empty column: no row is ready, so Start stays off.
    await select.selectOption('field:trong');
    expect(await next.isDisabled()).toBe(false);
    await next.click();
    await next.click();
    await page.getByTestId('no-rows-ready').waitFor({ timeout: 30_000 });
    const start = page.getByRole('button', { name: 'Start batch' });
    expect(await start.isDisabled()).toBe(true);
    expect(await page.locator('.banner.success').count()).toBe(0);
    await screenshot(page, 'unmapped-none-ready');

    // A column with one name: row 2 fails.
    await page.getByRole('button', { name: 'Edit mapping' }).click();
    await select.selectOption('field:ghichu');
    await next.click();
    await next.click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await start.click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.getByTestId('batch-succeeded').waitFor();
    await expect
      .poll(() => page.locator('.results-row .result-error').count(), { timeout: 60_000 })
      .toBe(1);
    const firstBatch = page.url();

    // Replay would fail the same row again; editing the mapping fixes it.
    await page.getByRole('button', { name: 'Edit mapping and rerun' }).click();
    await page.getByTestId('rerun-dialog').getByRole('button', { name: 'All rows (2)' }).click();
    await page.waitForURL(/\/ui\/batch\?template=/);
    await select.waitFor();
    expect(await select.inputValue()).toBe('field:ghichu');
    await select.selectOption('field:ten');
    await next.click();
    await next.click();
    await page.getByText('Every row passed the check.').waitFor({ timeout: 30_000 });
    await start.click();
    await page.waitForURL((url) => /\/ui\/batches\/bat_/.test(url.href) && url.href !== firstBatch);
    await expect
      .poll(() => page.getByTestId('batch-succeeded').textContent(), { timeout: 60_000 })
      .toBe('2');
    await screenshot(page, 'unmapped-rerun');
    expect(ui.consoleErrors).toEqual([]);
  });
});
