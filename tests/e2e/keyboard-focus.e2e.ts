import { describe, expect, it } from 'vitest';
import { dropSampleCsv } from './csv.js';
import { screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('keyboard focus', () => {
  const session = useCoreAndUi();

  /** What has focus: its tag and its text (or label). */
  const focused = () =>
    session.ui.page.evaluate<string>(`(() => {
      const el = document.activeElement;
      return el ? el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim() : '';
    })()`);

  it('lands on the new screen’s heading after a route change or a file read, and reaches Save image in a few keys', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const card = page.locator('.template-card', { hasText: 'Flash sale 11.11' }).getByRole('link');
    await card.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/templates\//);
    await expect.poll(focused, { timeout: 5_000 }).toBe('H1 Flash sale 11.11');

    // Tab to the skip link (past Customise), Enter, and the Save button has focus.
    let keys = 0;
    while (!(await focused()).includes('Skip to Save image') && keys < 60) {
      await page.keyboard.press('Tab');
      keys += 1;
    }
    expect(keys).toBeLessThanOrEqual(3);
    await screenshot(page, 'focus-skip-to-save');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('BUTTON Save image…');

    // Start: the batch page's heading takes focus, not <body>.
    await dropSampleCsv(page, core, TEMPLATE);
    // The drop zone is gone once the file is read: its name has focus, not <body>.
    await expect.poll(focused, { timeout: 5_000 }).toBe('H3 sale.csv');
    for (let i = 0; i < 3; i += 1)
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await expect.poll(focused, { timeout: 5_000 }).toMatch(/^H1 Flash sale 11\.11 · sale\.csv/);
    expect(ui.consoleErrors).toEqual([]);
  });
});
