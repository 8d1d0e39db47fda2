import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

/** Settings → Image URLs in data: turned on with an allow-list in the browser, read by the API. */
let core: CoreProcess;
let ui: UiSession;

beforeAll(async () => {
  core = await startCore();
  ui = await openUi(core);
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await core?.stop();
}, 60_000);

describe('Settings: integrations', () => {
  it('turns image URLs on with an allow-list, and refuses a host that is no host name', async () => {
    const { page } = ui;
    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByTestId('image-urls-card');
    await card.scrollIntoViewIfNeeded();
    expect(await card.getByTestId('image-urls-enabled').isChecked()).toBe(false);

    await card.getByTestId('image-urls-enabled').check();
    await card.getByLabel('Allowed hosts').fill('images.example.com\n*.CDN.example.com');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Image URL setting saved').waitFor();
    expect(await (await core.api('/v1/system/image-urls')).json()).toEqual({
      enabled: true,
      allowedHosts: ['images.example.com', '*.cdn.example.com'],
    });
    await screenshot(page, 'settings-image-urls');

    await card.getByLabel('Allowed hosts').fill('https://images.example.com/photos');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('alert').waitFor();
    expect(ui.consoleErrors.filter((e) => !/422/.test(e))).toEqual([]);
  });
});
