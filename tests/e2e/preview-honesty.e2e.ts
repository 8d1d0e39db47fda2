import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';

describe('the template page tells the truth about its preview and its text', () => {
  const session = useCoreAndUi();

  it('marks the preview out of date while a value is invalid, and keeps a pasted headline whole', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    const preview = page.getByTestId('preview-image');
    const count = async () => Number(await preview.getAttribute('data-preview-count'));
    await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(0);
    // How long a draw took is the developer's business (the API's timing headers), not a
    // figure for the marketer to wonder about under the preview.
    expect(await page.locator('.preview-bar').innerText()).not.toMatch(/\d\s*ms\b/);

    const price = page.getByLabel('Price', { exact: true });
    // Typed over the price (an empty price is another refusal, "a value is required").
    await price.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await price.pressSequentially('abc');
    const stale = page.getByTestId('preview-stale');
    await stale.waitFor({ timeout: 20_000 });
    // Said by the field's label before any render: the API would refuse this one.
    expect(await stale.textContent()).toBe('Price: “abc” is not a number. Type it like 1,250,000.');
    await screenshot(page, 'preview-stale');
    await price.fill('19.5');
    await expect.poll(() => page.getByTestId('preview-stale').count(), { timeout: 20_000 }).toBe(0);

    // Pasted: 75 characters into a 60-character headline.
    const headline = page.getByLabel('Headline', { exact: true });
    const pasted = 'Serum Vitamin C sáng da mờ thâm — giảm 50% cho đơn đầu tiên trong tuần này';
    // Pasted over the whole headline (select all, paste), as people replace a text.
    await headline.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(pasted);
    expect(await headline.inputValue()).toBe(pasted);
    const hint = page.getByText(`${[...pasted].length - 60} characters over the 60`);
    await hint.waitFor();
    await hint.scrollIntoViewIfNeeded();
    await screenshot(page, 'headline-over');
    expect(ui.consoleErrors).toEqual([]);
  });
});
