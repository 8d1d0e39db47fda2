import { afterEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('several sizes from one run', () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('draws every row in each size ticked, counts and charges images, and names them {name}-{size}', async () => {
    core = await startCore();
    ui = await openUi(core);
    const { page } = ui;
    await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: [{ productName: 'Nồi chiên' }, { productName: 'Máy xay' }],
    });
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    await next.click();
    const more = page.getByTestId('more-sizes');
    await more.waitFor();
    await more.getByRole('checkbox', { name: 'Story 9:16' }).check();
    expect(await page.locator('body').innerText()).toContain('1-square.png');
    await screenshot(page, 'several-sizes-en');
    await page.setViewportSize({ width: 1024, height: 700 });
    await more.scrollIntoViewIfNeeded();
    await screenshot(page, 'several-sizes-en-1024');
    await page.setViewportSize({ width: 1440, height: 900 });

    await next.click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });
    const stat = (label: string) =>
      page
        .locator('.stat')
        .filter({ has: page.locator('.stat-label', { hasText: new RegExp(`^${label}$`) }) })
        .locator('.stat-value');
    expect(await stat('Rows').textContent()).toBe('2');
    expect(await stat('Images').textContent()).toBe('4');
    expect(await stat('Cost').textContent()).toBe('4 credits');

    await page.getByTestId('start-batch').click();
    await page.waitForURL(/\/ui\/batches\/bat_/, { timeout: 30_000 });
    const id = /\/ui\/batches\/(bat_[A-Za-z0-9_-]+)/.exec(page.url())![1]!;
    await expect
      .poll(
        async () => {
          const batch = (await (await core!.api(`/v1/render-batches/${id}`)).json()) as {
            status: string;
            succeeded: number;
          };
          return `${batch.status}:${batch.succeeded}`;
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBe('succeeded:4');
    const manifest = (await (
      await core.api(`/v1/render-batches/${id}/renders?limit=10`)
    ).json()) as { rows: { fileName: string }[] };
    expect(manifest.rows.map((r) => r.fileName)).toEqual([
      '1-square.png',
      '1-story.png',
      '2-square.png',
      '2-story.png',
    ]);
    // The results count rows as the spreadsheet does, each with its size.
    await expect
      .poll(() => page.locator('.results-row > span:first-child').allInnerTexts(), {
        timeout: 30_000,
      })
      .toEqual(['1 · square', '1 · story', '2 · square', '2 · story']);
    expect(await page.locator('body').innerText()).toContain('Square 1:1 + Story 9:16');
    await screenshot(page, 'several-sizes-results-en');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('speaks Vietnamese', async () => {
    core = await startCore();
    ui = await openUi(core, { locale: 'vi-VN' });
    const { page } = ui;
    await wizardWithRows(page, core, { template: TEMPLATE, rows: [{}] });
    const next = page.getByRole('button', { name: 'Tiếp tục', exact: true });
    await next.click();
    await next.click();
    const more = page.getByTestId('more-sizes');
    await more.waitFor();
    expect(await more.innerText()).toContain('Dựng thêm mỗi dòng ở');
    await more.getByRole('checkbox', { name: 'Ngang 16:9' }).check();
    await screenshot(page, 'several-sizes-vi');
    await page.setViewportSize({ width: 1024, height: 700 });
    await more.scrollIntoViewIfNeeded();
    await screenshot(page, 'several-sizes-vi-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await next.click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });
    expect(
      await page.locator('.stat', { hasText: 'Số ảnh' }).locator('.stat-value').textContent(),
    ).toBe('2');
    await screenshot(page, 'several-sizes-review-vi');
    expect(ui.consoleErrors).toEqual([]);
  });
});
