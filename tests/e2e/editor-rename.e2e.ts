import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi, customiseInEditor } from './harness.js';

describe('renaming a layer in the editor', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('keeps the focus in the inspector: typing goes on and Backspace edits the text, not the layer', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, 'tmpl_product_promo');
    const headline = page.locator('.ed-box[data-layer-id="headline"]');
    await headline.click();
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    const layers = await page.locator('.ed-box').count();

    const name = page.getByLabel('Layer name');
    await name.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('hero');
    await page.keyboard.press('Enter');
    await page.locator('.ed-box[data-layer-id="hero"]').waitFor();
    // The same field, still focused: more typing lands in it.
    await page.keyboard.type('_2');
    expect(await name.inputValue()).toBe('hero_2');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await name.inputValue()).toBe('hero');
    expect(await page.locator('.ed-box').count()).toBe(layers);

    // Renamed on leaving the field: the next field takes the keys.
    await name.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('hero_title');
    const x = page.getByLabel('X', { exact: true });
    await x.click();
    await page.locator('.ed-box[data-layer-id="hero_title"]').waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('120');
    expect(await x.inputValue()).toBe('120');
    await page.keyboard.press('Backspace');
    expect(await x.inputValue()).toBe('12');
    expect(await page.locator('.ed-box').count()).toBe(layers);
    await screenshot(page, 'editor-renamed');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('takes a name in Vietnamese and keeps it without accents, saying so', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, 'tmpl_product_promo');
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    const name = page.getByLabel('Layer name');
    await name.click();
    await page.keyboard.press('ControlOrMeta+A');
    // Typed the way a Vietnamese keyboard sends it: the marks arrive as the letters do.
    await page.keyboard.type('Tiêu đề chính');
    expect(await name.inputValue()).toBe('Tiêu đề chính');
    await page.keyboard.press('Enter');
    await page.locator('.ed-box[data-layer-id="tieu-de-chinh"]').waitFor();
    // The field takes the kept name from the draft on the render after the canvas has it.
    await expect.poll(() => name.inputValue()).toBe('tieu-de-chinh');
    expect(await page.getByRole('status').filter({ hasText: 'is kept as' }).textContent()).toBe(
      '“Tiêu đề chính” is kept as tieu-de-chinh: layer names are written without accents or spaces in the template.',
    );
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    // Nothing a name could hold is refused except a name with no letter or digit at all.
    await name.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('— · —');
    await page.keyboard.press('Enter');
    await page.getByText('Give the layer a name with at least one letter or digit.').waitFor();
    await screenshot(page, 'editor-renamed-vietnamese');
    expect(ui.consoleErrors).toEqual([]);
  });
});
