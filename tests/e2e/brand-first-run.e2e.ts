import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

/** A fresh install has an empty brand kit: the app says so, and renders follow the API's rule. */
describe('first run with an empty brand kit', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('invites the user to fill the brand kit, leads there, and stops once dismissed', async () => {
    ui = await openUi(core);
    const { page } = ui;
    const invite = page.getByRole('region', { name: 'Your brand kit is empty' });
    await invite.waitFor();
    await screenshot(page, 'catalog-brand-invite-en');
    await invite.getByRole('button', { name: 'Fill in the brand kit' }).click();
    await expect.poll(() => page.url()).toContain('/ui/brand');

    await page.goBack();
    await invite.waitFor();
    await invite.getByRole('button', { name: 'Later' }).click();
    await invite.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('.template-card').first().waitFor();
    expect(await invite.count()).toBe(0);
    expect(ui.consoleErrors).toEqual([]);
  });

  it('shows the invitation in Vietnamese and not once the brand has a name', async () => {
    ui = await openUi(core, { locale: 'vi-VN' });
    await ui.page
      .getByRole('region', { name: 'Bộ nhận diện thương hiệu của bạn đang trống' })
      .waitFor();
    await screenshot(ui.page, 'catalog-brand-invite-vi');

    const put = await core.api('/v1/brand-profile', { method: 'PUT', json: { name: 'Hồng Phát' } });
    expect(put.status).toBe(200);
    await ui.page.reload();
    await ui.page.locator('.template-card').first().waitFor();
    expect(await ui.page.locator('.brand-invite').count()).toBe(0);
  });

  it('previews a brand-bound value the brand lacks as the API renders it: left empty, not the sample', async () => {
    ui = await openUi(core);
    const { page } = ui;
    const requests: { values: Record<string, unknown> }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/render/preview') && request.method() === 'POST')
        requests.push(JSON.parse(request.postData() ?? '{}'));
    });
    await page.goto(`${core.url}/ui/templates/tmpl_grand_opening`);
    await page.getByTestId('values-form').waitFor();
    // Any edit sends a preview request (previews may wait for the first edit).
    const headline = page.getByTestId('values-form').getByRole('textbox').first();
    await headline.fill('KHAI TRƯƠNG HỒNG PHÁT');
    await expect.poll(() => requests.length).toBeGreaterThan(0);
    const last = requests.at(-1)!;
    expect(last.values).not.toHaveProperty('storeName');
    expect(last.values).not.toHaveProperty('logo');
    expect(ui.consoleErrors).toEqual([]);
  });
});
