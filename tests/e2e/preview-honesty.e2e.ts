import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';

describe('the template page tells the truth about its preview and its text', () => {
  const session = useCoreAndUi({ launch: false });

  it('marks the preview out of date while a value is invalid, and keeps a pasted headline whole', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    const preview = page.getByTestId('preview-image');
    const count = async () => Number(await preview.getAttribute('data-preview-count'));
    await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(0);
    // How long a draw took is the developer's business (the API's timing headers), not a
    // figure for the marketer to wonder about under the preview.
    expect(await page.locator('.preview-bar').innerText()).not.toMatch(/\d\s*ms\b/);

    const price = page.getByLabel('Price', { exact: true });
    // Typed over the price (an empty price is another refusal, "a value is required").
    await price.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await price.pressSequentially('abc');
    const stale = page.getByTestId('preview-stale');
    await stale.waitFor({ timeout: 20_000 });
    // Said by the field's label before any render: the API would refuse this one.
    expect(await stale.textContent()).toBe('Price: “abc” is not a number. Type it like 1,250,000.');
    await screenshot(page, 'preview-stale');
    await price.fill('19.5');
    await expect.poll(() => page.getByTestId('preview-stale').count(), { timeout: 20_000 }).toBe(0);

    // Pasted: 75 characters into a 60-character headline.
    const headline = page.getByLabel('Headline', { exact: true });
    const pasted = 'Serum Vitamin C sáng da mờ thâm — giảm 50% cho đơn đầu tiên trong tuần này';
    // Pasted over the whole headline (select all, paste), as people replace a text.
    await headline.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(pasted);
    expect(await headline.inputValue()).toBe(pasted);
    const hint = page.getByText(`${[...pasted].length - 60} characters over the 60`);
    await hint.waitFor();
    await hint.scrollIntoViewIfNeeded();
    await screenshot(page, 'headline-over');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('charges nothing for a preview typed before the app knows previews are free', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const balance = async () =>
      ((await (await core.api('/v1/account')).json()) as { balance: number }).balance;
    const before = await balance();
    // A slow machine: the OpenAPI document that says previews are free arrives late.
    let released = false;
    await ui.context.route('**/v1/openapi.json', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      released = true;
      await route.continue();
    });
    const renders: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/v1\/render(\/preview)?$/.test(request.url()))
        renders.push(`${released ? 'after' : 'before'} ${new URL(request.url()).pathname}`);
    });
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    const headline = page.getByLabel('Headline', { exact: true });
    await headline.fill('Typed before the app was ready');
    const preview = page.getByTestId('preview-image');
    await expect
      .poll(async () => Number(await preview.getAttribute('data-preview-count')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    expect(renders.length).toBeGreaterThan(0);
    expect(
      renders.every((r) => r === 'after /v1/render/preview'),
      renders.join(', '),
    ).toBe(true);
    expect(await balance()).toBe(before);
    expect(ui.consoleErrors).toEqual([]);
  });
});
