import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, SCREENSHOTS_WANTED, screenshot, useCoreAndUi } from './harness.js';

/**
 * The inspector alone, scrolled to its end where the code's settings are, beside the page
 * screenshots: the panel is what these tests change.
 */
async function shootInspector(page: Page, name: string): Promise<void> {
  // A string: the test's TypeScript has no DOM types.
  await page
    .locator('.ed-inspector')
    .evaluate('(panel) => { panel.scrollTop = panel.scrollHeight; }');
  if (!SCREENSHOTS_WANTED) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.locator('.ed-inspector').screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Opens a catalog template's copy in the editor, with the label its language gives the button. */
async function customise(
  page: Page,
  url: string,
  templateId: string,
  [button, toasts]: [string, string],
) {
  await page.goto(`${url}/ui/templates/${templateId}`);
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(/\/ui\/editor\/wtpl_/);
  // The "ready to edit" toast would cover the inspector's end.
  await page.getByRole('region', { name: toasts }).getByRole('button').first().click();
}

describe('codes in the editor', () => {
  // A draft preview taken between two edits (a GTIN chosen, its value not typed yet; a VietQR
  // without its account) is refused with 422 and said in the editor, as designed; on a slow
  // machine the preview's debounce can fall between the steps.
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/, /status of 422/],
  });

  it('adds a barcode layer and sets its kind, value and text; a QR layer becomes a VietQR', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customise(page, core.url, 'tmpl_shelf_price_tag', ['Customise', 'Notifications']);
    await page.getByRole('combobox', { name: 'Add layer…' }).selectOption('barcode');
    await page.getByRole('heading', { name: 'Barcode layer' }).waitFor();
    const kind = page.getByRole('combobox', { name: 'Kind of code' });
    expect(await kind.inputValue()).toBe('code128');
    await kind.selectOption('gtin');
    const value = page.getByRole('textbox', { name: 'Value', exact: true });
    await value.fill('{{barcode}}');
    const text = page.getByRole('checkbox', { name: 'Print the value under the code' });
    expect(await text.isChecked()).toBe(true);
    await page.getByText('A product number: 13 digits').waitFor();
    await shootInspector(page, 'editor-barcode-panel');
    await screenshot(page, 'editor-barcode');

    await page.locator('.ed-box[data-layer-id="qr"]').click();
    await page.getByRole('combobox', { name: 'Content' }).selectOption('vietqr');
    await page.getByRole('combobox', { name: 'Bank (BIN or name)' }).waitFor();
    await page.getByRole('textbox', { name: 'Bank (BIN or name): value' }).fill('Vietcombank');
    await page.getByRole('textbox', { name: 'Account number: value' }).fill('1023456789');
    await page.getByRole('combobox', { name: 'Amount in đồng (optional)' }).selectOption('price');
    await shootInspector(page, 'editor-vietqr-panel');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('codes in the Vietnamese editor', () => {
  const session = useCoreAndUi({
    launch: false,
    locale: 'vi-VN',
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('names the barcode and VietQR settings in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customise(page, core.url, 'tmpl_payment_qr', ['Tùy chỉnh', 'Thông báo']);
    await page.locator('.ed-box[data-layer-id="qr"]').click();
    await page.getByRole('combobox', { name: 'Ngân hàng (mã BIN hoặc tên)' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Nội dung', exact: true }).inputValue()).toBe(
      'vietqr',
    );
    await shootInspector(page, 'vi-editor-vietqr-panel');
    await page.getByRole('combobox', { name: 'Thêm lớp…' }).selectOption('barcode');
    await page.getByRole('combobox', { name: 'Loại mã' }).waitFor();
    await shootInspector(page, 'vi-editor-barcode-panel');
    expect(await page.locator('.ed-inspector').innerText()).not.toMatch(/Barcode|Value\b|Bars/);
    expect(ui.consoleErrors).toEqual([]);
  });
});
