import { afterEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
  customiseInEditor,
  saveInEditor,
} from './harness.js';

const FONT_404 = /v1\/fonts.*404|404.*\(Not Found\)/;

/** Whether the whole of the element is inside the window (not scrolled away, not cut). */
async function inWindow(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    box !== null &&
    box.y >= 0 &&
    box.y + box.height <= size.height &&
    box.x >= 0 &&
    box.x + box.width <= size.width
  );
}

async function balance(core: CoreProcess): Promise<number> {
  const res = await core.api('/v1/account');
  return ((await res.json()) as { balance: number }).balance;
}

describe('Save in reach: a sticky action bar and Ctrl+S', () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('keeps Save image at the foot of the template page while the form scrolls, and Ctrl+S saves from a field', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false, allowConsole: [FONT_404] });
    const { page } = ui;
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const save = page.getByRole('button', { name: 'Save image…' });

    // The first field at the top of the window, the form running on below it.
    const headline = page.getByLabel('Headline', { exact: false }).first();
    await headline.scrollIntoViewIfNeeded();
    await headline.click();
    expect(await inWindow(page, save)).toBe(true);
    await screenshot(page, 'template-actions-en-1024');
    await page.keyboard.type(' mới');
    const before = await balance(core);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.keyboard.press('ControlOrMeta+S'),
    ]);
    expect(download.suggestedFilename()).toBe('Product promotion-square.png');
    await expect.poll(() => balance(core!)).toBe(before - 1);
    // The field keeps the focus and the text.
    expect(await page.locator(':focus').getAttribute('id')).toBe(await headline.getAttribute('id'));

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(`document.querySelector('.main').scrollTo(0, 0)`);
    expect(await inWindow(page, save)).toBe(true);
    await screenshot(page, 'template-actions-en');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says a refused save where the user is: the field at fault in view with the focus, the reason beside Save', async () => {
    core = await startCore();
    // The emptied field is previewed once (a 422 the page shows as "not up to date").
    ui = await openUi(core, { launch: false, allowConsole: [FONT_404, /status of 422/] });
    const { page } = ui;
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const headline = page.getByLabel('Headline', { exact: false }).first();
    await headline.fill('');
    // Scrolled down to the foot of the form, as after filling the last fields.
    await page.evaluate(`document.querySelector('.main').scrollTo(0, 1e6)`);
    const before = await balance(core);
    await page.getByRole('button', { name: 'Save image…' }).click();
    const said = page.getByTestId('save-refused');
    await said.waitFor();
    expect(await said.textContent()).toContain('Not saved, nothing charged: 1 value to fix.');
    expect(await said.textContent()).toContain('Headline');
    expect(await inWindow(page, said)).toBe(true);
    // The field at fault has the focus, in view, with its error under it (focus used to fall
    // to <body> with the summary off-screen at the top).
    await expect
      .poll(() => page.evaluate(`document.activeElement?.getAttribute('aria-invalid')`))
      .toBe('true');
    expect(await inWindow(page, page.locator(':focus'))).toBe(true);
    expect(await balance(core)).toBe(before);
    await screenshot(page, 'template-save-refused');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('keeps Save in the editor bar whatever scrolls, and Ctrl+S saves while typing in the inspector', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    await page.setViewportSize({ width: 1024, height: 700 });
    await customiseInEditor(page, core, 'tmpl_product_promo');
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    // The inspector's last field, far below the fold.
    const last = page.locator('.ed-inspector').locator('input, select, textarea').last();
    await last.scrollIntoViewIfNeeded();
    expect(await inWindow(page, save)).toBe(true);
    await page.getByLabel('X', { exact: true }).fill('80');
    expect(await page.getByTestId('save-state').getAttribute('data-dirty')).toBe('true');
    await saveInEditor(page);
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says it in Vietnamese', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false, locale: 'vi-VN', allowConsole: [FONT_404] });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const bar = page.getByRole('region', { name: 'Lưu và tạo hàng loạt' });
    const save = bar.getByRole('button', { name: 'Lưu ảnh…' });
    expect(await save.getAttribute('title')).toBe('Lưu ảnh (Ctrl+S hoặc ⌘S)');
    expect(await inWindow(page, save)).toBe(true);
    await screenshot(page, 'template-actions-vi');
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByLabel('Headline', { exact: false }).first().scrollIntoViewIfNeeded();
    expect(await inWindow(page, save)).toBe(true);
    await screenshot(page, 'template-actions-vi-1024');
    expect(ui.consoleErrors).toEqual([]);
  });
});
