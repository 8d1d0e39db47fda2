import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('rows past the first twenty', () => {
  const session = useCoreAndUi({ launch: false });

  it('a problem in row 25 opens row 25, and the row picker reaches every row', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: Array.from({ length: 30 }, (_, i) => ({
        productName: `Sản phẩm ${i + 1}`,
        ...(i === 24 ? { price: 'không rõ' } : {}),
      })),
      toReview: true,
    });
    const problem = page.getByRole('button', { name: 'Show row 25 in the data' });
    await problem.waitFor({ timeout: 30_000 });
    await problem.click();

    const picker = page.getByTestId('row-picker');
    await picker.waitFor();
    expect(await picker.inputValue()).toBe('25');
    const sample = page
      .locator('#map-productName')
      .locator('xpath=ancestor::tr')
      .locator('.mapping-sample');
    await expect.poll(() => sample.textContent(), { timeout: 20_000 }).toBe('Sản phẩm 25');
    // Its price is no number: the step says so, by the field's label, and asks for no preview.
    const notNumber = page.getByTestId('mapping-not-number');
    await notNumber.waitFor();
    expect(await notNumber.textContent()).toBe(
      'Giá sale: “không rõ” is not a number. Write it like 1.250.000.',
    );
    await screenshot(page, 'row-picker-25');

    await picker.fill('30');
    await expect.poll(() => sample.textContent(), { timeout: 20_000 }).toBe('Sản phẩm 30');
    expect(ui.consoleErrors).toEqual([]);
  });
});
