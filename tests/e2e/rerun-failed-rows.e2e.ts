import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Edit mapping and rerun the failed rows only', () => {
  const session = useCoreAndUi({ launch: false });

  it('renders exactly the rows that failed, under the first batch’s row numbers, charging only them', async () => {
    const { core, ui } = session;
    const { page } = ui;
    // The product names sit in "ten"; "ghichu" (mapped by mistake) has them on rows 1 and 3 only.
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name).filter((c) => c !== 'productName');
    const names = ['Nồi chiên', 'Máy xay', 'Ấm đun', 'Quạt'];
    const rows = names.map((name, i) => [
      ...columns.map((c) => fields.sampleRow[c]),
      name,
      i % 2 === 0 ? name : '',
    ]);
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: toCsv([...columns, 'ten', 'ghichu'], rows),
    });
    await page.locator('.data-preview tbody tr').nth(3).waitFor({ timeout: 20_000 });
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    const select = page.locator('#map-productName');
    await select.selectOption('field:ghichu');
    await next.click();
    await next.click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    const start = page.getByRole('button', { name: 'Start batch' });
    await start.click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    const firstId = /bat_[A-Za-z0-9_-]+/.exec(page.url())![0];
    await page.locator('[data-status="partial"]').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('batch-failed').textContent()).toBe('2');
    const balance = async () =>
      ((await (await core.api('/v1/account')).json()) as { balance: number }).balance;
    const before = await balance();

    await page.getByRole('button', { name: 'Edit mapping and rerun' }).click();
    const dialog = page.getByTestId('rerun-dialog');
    await dialog.getByRole('button', { name: 'All rows (4)' }).waitFor();
    await screenshot(page, 'rerun-which-rows');
    await dialog.getByRole('button', { name: 'Failed rows only (2)' }).click();
    await page.waitForURL(/\/ui\/batch\?template=/);
    await select.waitFor();
    expect(await select.inputValue()).toBe('field:ghichu');
    await select.selectOption('field:ten');
    await next.click();
    await next.click();
    const summary = page.getByTestId('preflight-summary');
    await page.getByText('Every row passed the check.').waitFor({ timeout: 30_000 });
    const stats = summary.locator('.stat');
    expect(await stats.nth(0).locator('.stat-value').textContent()).toBe('2');
    expect(await stats.nth(0).textContent()).toContain(
      'Only the rows that failed in the earlier batch',
    );
    expect(await summary.textContent()).toContain('2 credits');
    await screenshot(page, 'rerun-failed-rows-review');
    await start.click();
    await page.waitForURL(
      (url) => /\/ui\/batches\/bat_/.test(url.href) && !url.href.includes(firstId),
    );
    await page.locator('[data-status="succeeded"]').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('batch-succeeded').textContent()).toBe('2');
    // The results list the spreadsheet's rows 2 and 4, as the first batch numbered them.
    const results = page.locator('.results-row[data-row-index]');
    await expect
      .poll(async () =>
        Promise.all((await results.all()).map((row) => row.getAttribute('data-row-index'))),
      )
      .toEqual(['1', '3']);
    expect(await results.nth(1).textContent()).toContain('4.png');
    await screenshot(page, 'rerun-failed-rows-done');

    const secondId = /bat_[A-Za-z0-9_-]+/.exec(page.url())![0];
    const manifest = (await (
      await core.api(`/v1/render-batches/${secondId}/renders`)
    ).json()) as Json;
    expect(manifest.rows.map((r: Json) => [r.rowIndex, r.line, r.fileName, r.status])).toEqual([
      [1, 3, '2.png', 'succeeded'],
      [3, 5, '4.png', 'succeeded'],
    ]);
    expect(await balance()).toBe(before - 2);

    // No failed rows: straight to the mapping, with this batch's own rows (nothing asked).
    await page.getByRole('button', { name: 'Edit mapping and rerun' }).click();
    await page.waitForURL(/\/ui\/batch\?template=/);
    await select.waitFor();
    expect(await page.getByTestId('rerun-dialog').isVisible()).toBe(false);
    await next.click();
    await next.click();
    await page.getByText('Every row passed the check.').waitFor({ timeout: 30_000 });
    expect(await stats.nth(0).locator('.stat-value').textContent()).toBe('2');
    expect(ui.consoleErrors).toEqual([]);
  });
});
