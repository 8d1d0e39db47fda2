import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
  sentRenderValues,
} from './harness.js';

describe('number fields on the template page', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('reads 1.250.000 typed into a VND price as 1250000, as a batch reads the same cell', async () => {
    ui = await openUi(core, { launch: false, locale: 'vi-VN' });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_flash_sale_1111`);
    const price = page.getByLabel('Giá sale', { exact: true });
    await price.waitFor();
    await price.fill('');
    const sent = sentRenderValues(ui, 'price');
    await price.pressSequentially('1.250.000');
    await page.getByText('Sẽ in là 1.250.000 ₫').waitFor();
    expect(await price.inputValue()).toBe('1.250.000');
    // Once typing settles the preview draws 1250000 (the old misreading settled on 1 đ).
    await expect.poll(() => sent.at(-1), { timeout: 20_000 }).toBe(1250000);
    await screenshot(page, 'number-field-vi');
    // The emptied field may be previewed once (a 422 the page shows as "not up to date").
    expect(ui.consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('writes a Vietnamese price one way in the English UI: as typed, as it will print, as the example', async () => {
    ui = await openUi(core, { launch: false });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_flash_sale_1111`);
    const price = page.getByLabel('Giá sale', { exact: true });
    await price.waitFor();
    await price.fill('');
    await price.pressSequentially('1.250.000');
    // Not "Reads as 1,250,000" beside a field that reads and prints 1.250.000.
    await page.getByText('Prints as 1.250.000 ₫').waitFor();
    expect(await page.getByText('1,250,000').count()).toBe(0);
    await price.fill('');
    await price.pressSequentially('abc');
    const error = page.locator('.field-error', { hasText: '“abc” is not a number' });
    await error.waitFor();
    expect(await error.textContent()).toContain('Type it like 1.250.000');
    // The preview says it in the same words, and a sample price is written the same way.
    expect(await page.getByTestId('preview-stale').textContent()).toBe(
      'Giá sale: “abc” is not a number. Type it like 1.250.000.',
    );
    expect(await page.getByRole('textbox', { name: /^Giá gốc/ }).inputValue()).toBe('7.490.000');
    await screenshot(page, 'number-field-en-vnd');
    expect(ui.consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('says at once when the text is no number in the template’s market', async () => {
    ui = await openUi(core, { launch: false });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    const price = page.getByLabel('Price', { exact: true });
    await price.waitFor();
    await price.fill('');
    await price.pressSequentially('1.250.000');
    const error = page.locator('.field-error', { hasText: '“1.250.000” is not a number' });
    await error.waitFor();
    expect(await error.textContent()).toContain('Type it like 1,250,000');
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    await error.scrollIntoViewIfNeeded();
    await screenshot(page, 'number-field-en');
    expect(ui.consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
