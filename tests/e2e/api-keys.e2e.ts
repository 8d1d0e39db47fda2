import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

describe('local API screen', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
    ui = await openUi(core);
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('creates a key shown once that works for a real request, and revokes it', async () => {
    const { page } = ui;
    await page.getByRole('link', { name: 'Local API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Local API' }).waitFor();
    // The examples carry the real address.
    expect(await page.getByTestId('api-url').textContent()).toBe(core.url);
    expect(await page.getByTestId('example-curl').textContent()).toContain(`${core.url}/v1/render`);

    await page.getByLabel('Key name').fill('CI script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent())?.trim() ?? '';
    expect(secret.length).toBeGreaterThan(16);
    await screenshot(page, 'api-key-created');

    const withKey = (key: string) =>
      fetch(`${core.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect((await withKey(secret)).status).toBe(200);

    const row = page.locator('tr[data-key-name="CI script"]');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText(/Revoked/).waitFor();
    expect((await withKey(secret)).status).toBe(401);
    await screenshot(page, 'api-key-revoked');
    expect(ui.consoleErrors).toEqual([]);
  });
});
