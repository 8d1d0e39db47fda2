import { afterEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

/** Column letters of a 0-based column index (A, B, …). */
const letters = (index: number) => String.fromCharCode(65 + index);

describe('fixing a refused cell in the wizard', () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('shows the bad cell by its address, takes a new value, checks again and renders the batch with it', async () => {
    core = await startCore();
    ui = await openUi(core);
    const { page } = ui;
    const { columns } = await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: [{}, {}, { price: 'không rõ' }, {}],
      toReview: true,
    });
    const stat = (label: string) =>
      page.locator('.stat', { hasText: label }).locator('.stat-value');
    expect(await stat('With problems').textContent()).toBe('1');

    // Row 3 is on line 4 (after the header): the price cell is named by its address.
    const address = `${letters(columns.indexOf('price'))}4`;
    const table = page.getByTestId('fix-cells');
    await table.waitFor();
    const cell = table.getByRole('textbox', { name: `Cell ${address} (price)` });
    // The refused rows' cells are read from the upload after the table is drawn.
    await expect.poll(() => cell.inputValue(), { timeout: 20_000 }).toBe('không rõ');
    expect(await cell.getAttribute('aria-invalid')).toBe('true');
    expect(await table.locator('td.cell-bad').count()).toBe(1);
    expect(await table.locator('td.cell-bad').innerText()).toContain(address);
    await screenshot(page, 'fix-cells-en');
    await page.setViewportSize({ width: 1024, height: 700 });
    await cell.scrollIntoViewIfNeeded();
    await screenshot(page, 'fix-cells-en-1024');
    await page.setViewportSize({ width: 1440, height: 900 });

    await cell.fill('450.000');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('fix-status').textContent(), { timeout: 30_000 })
      .toBe('Cell changed; the check ran again.');
    expect(await stat('With problems').textContent()).toBe('0');
    expect(await stat('Ready').textContent()).toBe('4');
    expect(await table.count()).toBe(0);
    // The fixed cell is gone: focus went on to Start, not to the page.
    expect(await page.locator(':focus').getAttribute('data-testid')).toBe('start-batch');

    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/batches\//, { timeout: 30_000 });
    await expect
      .poll(
        async () => {
          const res = await core!.api('/v1/render-batches');
          const [batch] = (await res.json()) as { status: string; succeeded: number }[];
          return batch ? `${batch.status}:${batch.succeeded}` : '';
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBe('succeeded:4');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('speaks Vietnamese', async () => {
    core = await startCore();
    ui = await openUi(core, { locale: 'vi-VN' });
    const { page } = ui;
    const { columns } = await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: [{ price: 'liên hệ' }, {}],
    });
    // The mapping step previews row 1, whose price is no number: it says so and asks for no
    // preview the API would refuse.
    await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();
    const notNumber = page.getByTestId('mapping-not-number');
    await notNumber.waitFor();
    expect(await notNumber.textContent()).toBe(
      'Giá sale: “liên hệ” không phải là số. Hãy viết như 1.250.000.',
    );
    await screenshot(page, 'mapping-not-number-vi');
    for (let i = 0; i < 2; i += 1) {
      await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();
    }
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });
    const table = page.getByTestId('fix-cells');
    await table.waitFor();
    expect(await table.innerText()).toContain('Sửa các ô bị từ chối ngay tại đây');
    const address = `${letters(columns.indexOf('price'))}2`;
    await expect
      .poll(() => table.getByRole('textbox', { name: `Ô ${address} (price)` }).inputValue(), {
        timeout: 20_000,
      })
      .toBe('liên hệ');
    await screenshot(page, 'fix-cells-vi');
    await page.setViewportSize({ width: 1024, height: 700 });
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'fix-cells-vi-1024');
    expect(ui.consoleErrors).toEqual([]);
  });
});
