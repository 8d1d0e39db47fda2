import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';

describe('local API screen', () => {
  const session = useCoreAndUi();

  it('creates a key shown once that works for a real request, and revokes it', async () => {
    const { core, ui } = session;
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

  it("creates a key with the scope picked, shows each key's scope, and the key can do only that", async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.getByRole('link', { name: 'Local API' }).click();
    // The default is a render key; the hint says what the picked scope may do.
    const scope = page.getByLabel('Scope');
    expect(await scope.inputValue()).toBe('render');
    await scope.selectOption('read');
    await page.getByText(/Cannot render/).waitFor();
    await page.getByLabel('Key name').fill('Dashboard');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent())?.trim() ?? '';
    const row = page.locator('tr[data-key-name="Dashboard"]');
    expect(await row.locator('[data-scope]').textContent()).toBe('Read only');
    // The key the harness started the core with is an admin key.
    const admin = page.locator('tr[data-key-name="RENDER_DESK_API_KEY"] [data-scope]');
    expect(await admin.getAttribute('data-scope')).toBe('admin');
    await screenshot(page, 'api-key-scopes');

    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    expect((await fetch(`${core.url}/v1/catalog`, { headers })).status).toBe(200);
    const render = await fetch(`${core.url}/v1/render`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ templateId: 'tmpl_product_promo', values: {} }),
    });
    expect(render.status).toBe(403);
    expect(((await render.json()) as { code: string }).code).toBe('insufficient-scope');
    const listed = (await (await core.api('/v1/api-keys')).json()) as {
      name: string;
      scope: string;
    }[];
    expect(listed.find((key) => key.name === 'Dashboard')?.scope).toBe('read');
    expect(ui.consoleErrors).toEqual([]);
  });
});
