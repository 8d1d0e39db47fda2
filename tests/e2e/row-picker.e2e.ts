import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import {
  dropFile,
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
} from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('rows past the first twenty', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [/status of 422/] });
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('a problem in row 25 opens row 25, and the row picker reaches every row', async () => {
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const rows = Array.from({ length: 30 }, (_, i) =>
      columns.map((c) =>
        c === 'productName'
          ? `Sản phẩm ${i + 1}`
          : c === 'price' && i === 24
            ? 'không rõ'
            : fields.sampleRow[c],
      ),
    );
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: toCsv(columns, rows),
    });
    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    for (let i = 0; i < 3; i += 1)
      await page.getByRole('button', { name: 'Next', exact: true }).click();
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
    await screenshot(page, 'row-picker-25');

    await picker.fill('30');
    await expect.poll(() => sample.textContent(), { timeout: 20_000 }).toBe('Sản phẩm 30');
    expect(ui.consoleErrors).toEqual([]);
  });
});
