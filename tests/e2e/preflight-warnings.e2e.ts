import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('pre-flight warnings and errors', () => {
  const session = useCoreAndUi({ launch: false });

  it('lists text cut short with "…" as a warning apart from rows that fail, and costs only the rows that render', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: [
        {},
        { productName: 'Điện thoại thông minh màn hình lớn '.repeat(12) },
        { price: 'liên hệ' },
      ],
      toReview: true,
    });

    const stat = (label: string) =>
      page.locator('.stat', { hasText: label }).locator('.stat-value');
    expect(await stat('Ready').textContent()).toBe('2');
    expect(await stat('With problems').textContent()).toBe('1');
    expect(await stat('Cost').textContent()).toBe('2 credits');
    // Money is one number, said the same in the tile, the sentence and beside Start (the
    // sentence used to say 3, the start line 2 again with a clause of its own).
    expect(await page.getByTestId('money').textContent()).toBe(
      'This batch costs 2 credits: one credit for each image that renders; rows that fail are not charged, and of the 3 credits set aside while it runs, the rest comes back.',
    );
    expect(await page.getByTestId('start-cost').textContent()).toBe('2 credits');

    const warnings = page.getByTestId('preflight-warnings');
    await warnings.waitFor();
    expect(await warnings.textContent()).toContain(
      'Tên sản phẩm: the text does not fit and is shortened with “…”',
    );
    expect(await warnings.textContent()).toContain('1 row');
    const problems = page.getByTestId('preflight-problems');
    expect(await problems.locator('li').count()).toBe(1);
    expect(await problems.textContent()).toContain('Row 3');
    expect(await problems.textContent()).not.toContain('shortened');
    await warnings.scrollIntoViewIfNeeded();
    await screenshot(page, 'preflight-warnings');
    expect(ui.consoleErrors).toEqual([]);
  });
});
