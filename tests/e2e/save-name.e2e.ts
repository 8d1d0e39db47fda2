import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openUi,
  startCore,
  type CoreProcess,
  type UiSession,
  customiseInEditor,
} from './harness.js';

describe('Save image on a copy of a template', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/] });
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('suggests a file named after the copy, not its wtpl_ id', async () => {
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
