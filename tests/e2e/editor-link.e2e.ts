import { describe, expect, it } from 'vitest';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import { customiseInEditor, saveInEditor, screenshot, useCoreAndUi } from './harness.js';

describe('a link on a layer, from the editor', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/, /status of 422/],
  });

  it('sets a PDF link on a text layer, refuses a javascript: one at its field, and removes it when emptied', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, 'tmpl_product_promo');
    const read = async () =>
      (
        (await (await core.api(`/v1/templates/${id}`)).json()) as WorkspaceTemplateDetail
      ).template.layouts.square!.layers.find((l) => l.id === 'headline') as { link?: string };

    await page.locator('.ed-box[data-layer-id="headline"]').click();
    const link = page.getByLabel('Link in PDFs');
    await link.fill('https://shop.example/sale');
    await saveInEditor(page);
    expect((await read()).link).toBe('https://shop.example/sale');
    await screenshot(page, 'editor-link');

    await link.fill('javascript:alert(1)');
    await page.keyboard.press('ControlOrMeta+S');
    await expect.poll(() => link.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
    expect((await read()).link).toBe('https://shop.example/sale');

    await link.fill('');
    await saveInEditor(page);
    expect((await read()).link).toBeUndefined();
    expect(ui.consoleErrors).toEqual([]);
  });
});
