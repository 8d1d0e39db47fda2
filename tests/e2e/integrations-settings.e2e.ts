import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

/**
 * Settings → Image URLs in data (turned on with an allow-list in the browser, read by the API)
 * Settings → Webhooks (added in the browser; a batch's delivery shows in the log) and Settings →
 * Preview links (every link revoked).
 */
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

  it('adds a webhook, shows its secret once, and logs the delivery of a finished batch', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { page } = ui;
      const card = page.getByTestId('webhooks-card');
      await card.scrollIntoViewIfNeeded();
      // A wrong address is said in the UI's words under the field (the browser's own
      // "Please enter a URL." spoke the browser's language), and nothing is added.
      await card.getByLabel('Address').fill('hooks.example.com/in');
      await card.getByRole('button', { name: 'Add webhook' }).click();
      await card
        .getByText('Write an http:// or https:// address, like http://127.0.0.1:8080/render-desk.')
        .waitFor();
      expect(await card.getByLabel('Address').getAttribute('aria-invalid')).toBe('true');
      await card.getByLabel('Address').fill(`http://user:pass@${receiver.url.slice(7)}`);
      await card.getByRole('button', { name: 'Add webhook' }).click();
      await card.getByText(/Leave the user name and password out of the address/).waitFor();
      expect(
        ((await (await core.api('/v1/webhooks')).json()) as { items: unknown[] }).items,
      ).toEqual([]);
      // The toasts of the settings saved before have gone (each says one thing, briefly).
      await expect.poll(() => page.locator('.toast').count(), { timeout: 30_000 }).toBe(0);
      await card.getByLabel('Address').fill(receiver.url);
      await card.getByLabel('Also send each failed row').check();
      await card.getByRole('button', { name: 'Add webhook' }).click();
      await card.getByTestId('webhook-secret').waitFor();
      const secret = await card.getByTestId('webhook-secret').locator('code').textContent();
      expect(secret).toMatch(/^whsec_/);
      // The new row's Delete is there to press at once, on a laptop screen too: nothing (a
      // toast) lies over it.
      await page.setViewportSize({ width: 1366, height: 768 });
      const remove = card.getByTestId('webhooks').getByRole('button', { name: 'Remove' });
      await remove.scrollIntoViewIfNeeded();
      await screenshot(page, 'webhook-added-1366');
      // Said by what lies over the button, if anything: a toast's own words name it.
      const over = await page.evaluate<string>(`(() => {
        const button = [...document.querySelectorAll('[data-testid="webhooks"] button')].find((b) => b.textContent === 'Remove');
        const box = button.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return top && button.contains(top) ? 'nothing' : (top ? top.closest('.toast, button, div')?.textContent ?? top.tagName : 'outside the window');
      })()`);
      expect(over).toBe('nothing');
      await page.setViewportSize({ width: 1440, height: 900 });

      const res = await core.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: 'tmpl_product_promo',
          sourceType: 'json-array',
          source: {
            records: [
              { headline: 'Serum', price: 10, photo: 'asset:product.jpg' },
              { headline: 'No price' },
            ],
          },
        },
      });
      expect(res.status).toBe(202);
      await receiver.waitFor('batch.finished', 1, 60_000);
      // The card re-reads the log every 5 s.
      await card
        .getByTestId('webhook-deliveries')
        .locator('tr[data-status="delivered"]')
        .nth(1)
        .waitFor({ timeout: 15_000 });
      await card.getByTestId('webhook-deliveries').scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-webhooks');
      expect(ui.consoleErrors.filter((e) => !/422/.test(e))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('revokes every preview link from Settings', async () => {
    const made = await core.api('/v1/preview-links', {
      method: 'POST',
      json: {
        templateId: 'tmpl_product_promo',
        values: { headline: 'Before revoking', price: 1, photo: 'asset:product.jpg' },
      },
    });
    const { url } = (await made.json()) as { url: string };
    expect((await fetch(url)).status).toBe(200);

    const { page } = ui;
    const card = page.getByTestId('preview-links-card');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-preview-links');
    await card.getByRole('button', { name: 'Revoke all preview links' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Revoke all preview links' })
      .click();
    await page.getByText('All preview links revoked').waitFor();
    const after = await fetch(url);
    expect(after.status).toBe(403);
    expect(((await after.json()) as { code: string }).code).toBe('url-invalid');
  });
});
