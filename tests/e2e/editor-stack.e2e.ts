import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi, customiseInEditor } from './harness.js';

describe('a format 2 stack in the editor', () => {
  const session = useCoreAndUi({ allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/] });

  it('shows as one layer to select, move and resize, saying where its layers are edited', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, 'tmpl_quote_card');
    const stack = page.locator('.ed-box[data-layer-id="body"]');
    await stack.click();
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    await page.getByText('its layers are edited in the template’s JSON').waitFor();
    // Its children are not boxes of their own.
    expect(await page.locator('.ed-box[data-layer-id="quote"]').count()).toBe(0);
    const x = page.getByLabel('X', { exact: true });
    await x.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('120');
    await page.keyboard.press('Tab');
    await expect.poll(() => x.inputValue()).toBe('120');
    // The preview (drawn by the engine, the stack laid out) catches up with the moved stack.
    const preview = page.getByTestId('editor-preview');
    const canvas = page.getByTestId('editor-canvas');
    await preview.waitFor({ timeout: 30_000 });
    await expect
      .poll(
        async () =>
          Number(await preview.getAttribute('data-preview-rev')) >=
          Number(await canvas.getAttribute('data-draft-rev')),
        { timeout: 20_000 },
      )
      .toBe(true);
    await screenshot(page, 'editor-stack');
    // A duplicate gets fresh ids for the stack and its layers, so the template still saves.
    await page.getByRole('button', { name: 'Duplicate body' }).click();
    await page.locator('.ed-box[data-layer-id="body_2"]').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    expect(ui.consoleErrors).toEqual([]);
  });
});
