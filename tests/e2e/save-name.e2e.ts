import { describe, expect, it } from 'vitest';
import { useCoreAndUi, customiseInEditor } from './harness.js';

describe('Save image on a copy of a template', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('suggests a file named after the copy, not its wtpl_ id', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, 'tmpl_product_promo');
    await page.getByRole('button', { name: 'Use', exact: true }).click();
    await page.waitForURL(/\/ui\/templates\/wtpl_/);
    await page.getByRole('heading', { level: 1, name: 'Product promotion (copy)' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Save image…' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Product promotion (copy)-square.png');
    expect(ui.consoleErrors).toEqual([]);
  });
});
