import fs from 'node:fs';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';
/** The spreadsheet calls the price column by a name the wizard cannot match by itself. */
const PRICE_COLUMN = 'Giá bán lẻ';

/** The names of the entries of a zip file. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('the batch wizard by keyboard alone', () => {
  const session = useCoreAndUi({ launch: false });

  /** What has focus: its tag and its label (or text). */
  const focused = () =>
    session.ui.page.evaluate<string>(`(() => {
      const el = document.activeElement;
      if (!el) return '';
      const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') || el.textContent || '';
      return el.tagName + ' ' + label.replace(/\\s+/g, ' ').trim();
    })()`);

  /** Tabs forward until `wanted` has focus; fails when it takes more than `limit` keys. */
  const tabTo = async (wanted: RegExp, limit = 40): Promise<number> => {
    const { page } = session.ui;
    for (let keys = 1; keys <= limit; keys += 1) {
      await page.keyboard.press('Tab');
      if (wanted.test(await focused())) return keys;
    }
    throw new Error(
      `${wanted} was not reached in ${limit} presses of Tab (focus: ${await focused()})`,
    );
  };

  it('picks a file, maps a column, fixes a cell, starts and downloads the zip without the mouse', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => (f.name === 'price' ? PRICE_COLUMN : f.name));
    const cell = (name: string, row: number) =>
      name === 'price' && row === 1 ? 'không rõ' : fields.sampleRow[name];
    const csv = toCsv(
      columns,
      [0, 1, 2].map((row) => fields.fields.map((f) => cell(f.name, row))),
    );

    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();

    // Source: the file picker opens from the keyboard. The chooser is awaited before the first
    // key: Playwright intercepts file dialogs only once a listener has been registered with the
    // browser, and on a loaded machine a dialog opened right after registering was missed.
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 60_000 });
    await tabTo(/^BUTTON Choose file…$/);
    await page.keyboard.press('Enter');
    const chooser = await chooserOpened;
    await chooser.setFiles({ name: 'gia.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    await tabTo(/^BUTTON Next$/);
    await page.keyboard.press('Enter');

    // Mapping: the price has no column of its name; its select takes the renamed one by keys.
    const priceSelect = page.locator('select[data-variable="price"]');
    await priceSelect.waitFor();
    await tabTo(/^SELECT /, 60);
    while (
      (await page.evaluate<string>(`document.activeElement.dataset.variable || ''`)) !== 'price'
    )
      await page.keyboard.press('Tab');
    const target = `field:${PRICE_COLUMN}`;
    for (let i = 0; i < 40 && (await priceSelect.inputValue()) !== target; i += 1)
      await page.keyboard.press('ArrowDown');
    expect(await priceSelect.inputValue()).toBe(target);
    await screenshot(page, 'keyboard-wizard-mapping');
    await tabTo(/^BUTTON Next$/, 80);
    await page.keyboard.press('Enter');

    // Output: as it is.
    await tabTo(/^BUTTON Next$/, 80);
    await page.keyboard.press('Enter');

    // Review: row 2's price is refused; its cell takes a new value and Enter checks again.
    await page.getByTestId('preflight-summary').waitFor({ timeout: 60_000 });
    const address = `${String.fromCharCode(65 + columns.indexOf(PRICE_COLUMN))}3`;
    const badCell = page.getByTestId('fix-cells').getByRole('textbox', {
      name: `Cell ${address} (${PRICE_COLUMN})`,
    });
    await expect.poll(() => badCell.inputValue(), { timeout: 20_000 }).toBe('không rõ');
    await tabTo(new RegExp(`^INPUT .*${address}`), 80);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('450.000');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('fix-status').textContent(), { timeout: 30_000 })
      .toBe('Cell changed; the check ran again.');
    // Focus went on to Start: Enter starts the batch.
    await expect.poll(focused).toMatch(/^BUTTON Start batch/);
    await screenshot(page, 'keyboard-wizard-review');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/batches\/bat_/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Export zip…' }).waitFor({ timeout: 120_000 });

    // Results: the zip is a few Tabs away and downloads with Enter.
    await tabTo(/^BUTTON Export zip…$/, 40);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.keyboard.press('Enter'),
    ]);
    const file = await download.path();
    expect(fs.statSync(file).size).toBeGreaterThan(0);
    const images = (await zipEntries(file)).filter((name) => name.endsWith('.png'));
    expect(images).toHaveLength(3);
    const [batch] = (await (await core.api('/v1/render-batches')).json()) as {
      status: string;
      succeeded: number;
    }[];
    expect(batch).toMatchObject({ status: 'succeeded', succeeded: 3 });
    expect(ui.consoleErrors).toEqual([]);
  });
});
