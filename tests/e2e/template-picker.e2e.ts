import { afterEach, describe, expect, it } from 'vitest';
import {
  openUi,
  screenshot,
  startCore,
  waitForImages,
  type CoreProcess,
  type UiSession,
} from './harness.js';

describe("the wizard's template picker", () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('shows thumbnails and is chosen by keyboard alone', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false });
    const { page } = ui;
    await page.goto(`${core.url}/ui/batch`);
    const list = page.getByRole('listbox', { name: 'Choose a template' });
    await list.waitFor();
    const options = list.getByRole('option');
    // The list appears before the catalog's answer fills it.
    await expect.poll(() => options.count()).toBeGreaterThan(10);
    await waitForImages(page, '.picker-option:nth-child(-n+4) img');
    await screenshot(page, 'template-picker-en');

    // Tab from the search lands on the first card; arrows move, Enter chooses.
    const search = page.getByRole('searchbox', { name: 'Search templates' });
    await search.focus();
    await page.keyboard.press('Tab');
    const focusedId = () => page.locator('[role="option"]:focus').getAttribute('data-template-id');
    const first = await options.first().getAttribute('data-template-id');
    expect(await focusedId()).toBe(first);
    await page.keyboard.press('ArrowRight');
    expect(await focusedId()).toBe(await options.nth(1).getAttribute('data-template-id'));
    await page.keyboard.press('End');
    expect(await focusedId()).toBe(await options.last().getAttribute('data-template-id'));
    await page.keyboard.press('Home');
    expect(await focusedId()).toBe(first);

    // The search narrows the cards by name or category, diacritics or not.
    await search.fill('flash sale');
    await expect.poll(() => options.count()).toBeLessThan(5);
    await page.keyboard.press('Tab');
    const picked = await focusedId();
    expect(picked).toBe('tmpl_flash_sale_1111');
    await page.keyboard.press('Enter');
    await page.waitForURL(/template=tmpl_flash_sale_1111/);
    const chosen = page.getByTestId('template-chosen');
    expect(await chosen.innerText()).toContain('Flash sale 11.11');
    // Focus stays on the picker, ready to change it.
    expect(await page.locator(':focus').innerText()).toContain('Change template');
    await waitForImages(page, '.picker-chosen img');
    await screenshot(page, 'template-picker-chosen-en');

    // Space reopens it with the chosen card marked and focused.
    await page.keyboard.press('Space');
    await list.waitFor();
    expect(await focusedId()).toBe('tmpl_flash_sale_1111');
    expect(
      await list.locator('[data-template-id="tmpl_flash_sale_1111"]').getAttribute('aria-selected'),
    ).toBe('true');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'template-picker-en-1024');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('speaks Vietnamese and finds "khuyen mai" without diacritics', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false, locale: 'vi-VN' });
    const { page } = ui;
    await page.goto(`${core.url}/ui/batch`);
    const list = page.getByRole('listbox', { name: 'Chọn mẫu thiết kế' });
    await list.waitFor();
    await waitForImages(page, '.picker-option:nth-child(-n+4) img');
    await screenshot(page, 'template-picker-vi');
    await page.getByRole('searchbox', { name: 'Tìm mẫu thiết kế' }).fill('khuyen mai');
    const options = list.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    expect(await list.innerText()).toContain('Khuyến mãi');
    await page.getByRole('searchbox', { name: 'Tìm mẫu thiết kế' }).fill('zzzz');
    expect(await page.getByRole('status').filter({ hasText: 'Không có mẫu nào' }).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Tìm mẫu thiết kế' }).fill('');
    await options.first().click();
    await page.getByTestId('template-chosen').waitFor();
    expect(await page.getByRole('button', { name: 'Đổi mẫu thiết kế' }).count()).toBe(1);
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'template-picker-vi-1024');
    expect(ui.consoleErrors).toEqual([]);
  });
});
