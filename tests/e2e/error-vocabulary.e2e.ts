import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';
const LABEL = 'Tên sản phẩm';
/** What the API says, which the Vietnamese UI must not show. */
const RAW = /values\.|a value is required|problems?:/;

describe('errors in the language of the UI', () => {
  const session = useCoreAndUi({ launch: false, locale: 'vi-VN', allowConsole: [/status of 422/] });

  it('names the field by its label and the cell by its address, in Vietnamese, on the template page, in pre-flight and in results', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/${TEMPLATE}`);
    const name = page.getByLabel(LABEL, { exact: true });
    await name.waitFor();
    await name.fill('');
    const fieldError = page.locator('.field-error').first();
    await fieldError.waitFor({ timeout: 20_000 });
    expect(await fieldError.textContent()).toContain(`${LABEL}: cần có giá trị`);
    const banner = page.locator('.banner.danger');
    await banner.waitFor();
    expect(await banner.textContent()).not.toMatch(RAW);
    await screenshot(page, 'errors-template-vi');
    // A price that is no number is said over the preview, by its label, before any request.
    await name.fill('Nồi chiên');
    const price = page.getByLabel('Giá sale', { exact: true });
    await price.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await price.pressSequentially('abc');
    const stale = page.getByTestId('preview-stale');
    await expect
      .poll(() => stale.textContent(), { timeout: 20_000 })
      .toBe('Giá sale: “abc” không phải là số. Hãy nhập như 1.250.000.');
    await screenshot(page, 'errors-template-not-number-vi');

    // Row 2 of the sheet leaves the required product name empty.
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const row = (overrides: Record<string, unknown>) =>
      columns.map((c) => (c in overrides ? overrides[c] : fields.sampleRow[c]));
    const csv = toCsv(columns, [row({}), row({ productName: '' })]);
    const column = String.fromCharCode(65 + columns.indexOf('productName'));
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: csv,
    });
    await page.locator('.data-preview tbody tr').nth(1).waitFor({ timeout: 20_000 });
    for (let step = 0; step < 3; step += 1) {
      await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();
    }
    const problems = page.getByTestId('preflight-problems');
    await problems.waitFor({ timeout: 30_000 });
    const text = await problems.textContent();
    expect(text).toContain(`${LABEL} (ô ${column}3): cần có giá trị`);
    expect(text).not.toMatch(RAW);
    await screenshot(page, 'errors-preflight-vi');

    await page.getByRole('button', { name: 'Bắt đầu', exact: true }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('.results-row [data-status], .results-row .badge.danger').first().waitFor({
      timeout: 120_000,
    });
    const failed = page.locator('.results-row .result-error').first();
    await failed.waitFor({ timeout: 120_000 });
    const rowError = await failed.textContent();
    expect(rowError).toContain(`${LABEL} (ô ${column}3): cần có giá trị`);
    expect(rowError).not.toMatch(RAW);
    await screenshot(page, 'errors-results-vi');
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('a failed row in results, in English', () => {
  const session = useCoreAndUi({ launch: false });

  it("names the number field by its label and its cell by the spreadsheet's address", async () => {
    const { core, ui } = session;
    const { page } = ui;
    // Row 3 of the sheet (line 4) has no number in its price; the others are fine.
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const price = fields.fields.find((f) => f.name === 'price')!;
    const row = (overrides: Record<string, unknown>) =>
      columns.map((c) => (c in overrides ? overrides[c] : fields.sampleRow[c]));
    const csv = toCsv(columns, [row({}), row({}), row({ price: 'abc' })]);
    const column = String.fromCharCode(65 + columns.indexOf('price'));
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: csv,
    });
    await page.locator('.data-preview tbody tr').nth(2).waitFor({ timeout: 20_000 });
    for (let step = 0; step < 3; step += 1) {
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    }
    await page.getByTestId('preflight-problems').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start batch', exact: true }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    const failed = page.locator('.results-row .result-error').first();
    await failed.waitFor({ timeout: 120_000 });
    const rowError = await failed.textContent();
    expect(rowError).toContain(
      `${price.label ?? 'price'} (cell ${column}4): “abc” is not a number`,
    );
    expect(rowError).not.toMatch(RAW);

    // The failed rows alone say the same.
    await page.getByRole('radio', { name: /Failed/ }).click();
    const onlyFailed = page.locator('.results-row .result-error').first();
    await onlyFailed.waitFor();
    expect(await onlyFailed.textContent()).toBe(rowError);
    await screenshot(page, 'errors-results-en');
    expect(ui.consoleErrors).toEqual([]);
  });
});
