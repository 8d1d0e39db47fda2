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

describe('pre-flight warnings and errors', () => {
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

  it('lists text cut short with "…" as a warning apart from rows that fail, and costs only the rows that render', async () => {
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const row = (overrides: Record<string, unknown>) =>
      columns.map((c) => (c in overrides ? overrides[c] : fields.sampleRow[c]));
    const csv = toCsv(columns, [
      row({}),
      row({ productName: 'Điện thoại thông minh màn hình lớn '.repeat(12) }),
      row({ price: 'liên hệ' }),
    ]);
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 's.csv',
      type: 'text/csv',
      content: csv,
    });
    await page.locator('.data-preview tbody tr').nth(2).waitFor({ timeout: 20_000 });
    for (let i = 0; i < 3; i += 1)
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });

    const stat = (label: string) =>
      page.locator('.stat', { hasText: label }).locator('.stat-value');
    expect(await stat('Ready').textContent()).toBe('2');
    expect(await stat('With problems').textContent()).toBe('1');
    expect(await stat('Cost').textContent()).toBe('2 credits');

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
