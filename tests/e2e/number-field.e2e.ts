import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

/** The body of the next preview render sent with a number for `name`. */
function renderedNumber(ui: UiSession, name: string): Promise<unknown> {
  return ui.page
    .waitForRequest(
      (r) => r.method() === 'POST' && /\/v1\/render/.test(r.url()) && r.postData() !== null,
      { timeout: 20_000 },
    )
    .then((r) => (JSON.parse(r.postData()!) as { values: Record<string, unknown> }).values[name]);
}

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
    ui = await openUi(core, { locale: 'vi-VN' });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_flash_sale_1111`);
    const price = page.getByLabel('Giá sale', { exact: true });
    await price.waitFor();
    await price.fill('');
    const sent = renderedNumber(ui, 'price');
    await price.pressSequentially('1.250.000');
    await page.getByText('Được hiểu là 1.250.000').waitFor();
    expect(await price.inputValue()).toBe('1.250.000');
    expect(await sent).toBe(1250000);
    await screenshot(page, 'number-field-vi');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says at once when the text is no number in the template’s market', async () => {
    ui = await openUi(core);
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
