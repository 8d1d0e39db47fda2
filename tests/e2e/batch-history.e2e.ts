import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';
const ROWS = 6;

describe('a finished batch in the history', () => {
  const session = useCoreAndUi({ launch: false });

  it('is named by template, file and day, numbers its files from 1, and is one line of credit history', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    const rows = Array.from({ length: ROWS }, () => columns.map((c) => fields.sampleRow[c]));
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale-1111.csv',
      type: 'text/csv',
      content: toCsv(columns, rows),
    });
    await page
      .locator('.data-preview tbody tr')
      .nth(ROWS - 1)
      .waitFor({ timeout: 20_000 });
    for (let i = 0; i < 2; i += 1)
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    // Without a pattern, row 1 is 1.png.
    expect(await page.locator('.field', { hasText: 'File names' }).innerText()).toContain(
      'Example: 1.png',
    );
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    const id = /\/ui\/batches\/(bat_[A-Za-z0-9_-]+)/.exec(page.url())![1]!;
    await page.locator('.toast', { hasText: 'Batch finished' }).waitFor({ timeout: 90_000 });

    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date());
    const name = `Flash sale 11.11 · sale-1111.csv · ${day}`;
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    const manifest = await (await core.api(`/v1/render-batches/${id}/renders`)).json();
    const files = (manifest as { rows: { fileName: string | null }[] }).rows.map((r) => r.fileName);
    expect(files).toEqual(Array.from({ length: ROWS }, (_, i) => `${i + 1}.png`));

    await page.locator('nav.sidebar').getByRole('link', { name: 'Batches' }).click();
    const listed = page.getByTestId('batches-table').locator('tbody tr').first();
    await listed.waitFor();
    expect(await listed.locator('strong').innerText()).toBe(name);
    await screenshot(page, 'batch-history-list');

    await page.locator('nav.sidebar').getByRole('link', { name: 'Credits', exact: true }).click();
    const ledger = page.getByTestId('ledger');
    await ledger.waitFor();
    // The batch wrote a hold, a release and a debit per row, shown as one line of −6.
    const lines = ledger.locator('tbody tr', { hasText: id });
    expect(await lines.count()).toBe(1);
    expect(await lines.first().innerText()).toMatch(/Spent\s+−6/);
    // Named as on its own page, the id beside the name.
    expect(await lines.first().getByRole('link').innerText()).toBe(`Batch ${name}`);
    expect(await ledger.locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'batch-history-credits');
    // Every entry is still there: the grant, the hold, and a release and a debit per row.
    await page.getByRole('checkbox', { name: 'Every entry' }).check();
    await expect.poll(() => ledger.locator('tbody tr').count()).toBe(2 + 2 * ROWS);
    expect(ui.consoleErrors).toEqual([]);
  });
});
