import AdmZip from 'adm-zip';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_PHOTO, templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi, waitForImages } from './harness.js';
import { referenceTemplate } from './reference-template.js';

describe('batch wizard', () => {
  const session = useCoreAndUi({ launch: false });
  let imagesDir: string;
  beforeEach(() => {
    imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-images-'));
  });
  afterEach(() => {
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  it('takes a dropped CSV, maps a column by hand, checks the rows, runs to the end and exports the zip', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const template = await referenceTemplate(core);
    const fields = await templateFields(core, template.id);
    const renamed = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!;
    const images = new Set(template.variables.filter((v) => v.type === 'image').map((v) => v.name));
    // Every column the template takes from a spreadsheet; image cells name photos kept in a
    // folder beside it, as people do (the reference template's product photo is required).
    const columns = fields.fields.map((f) => f.name);
    // One column is named so nothing matches it automatically: the user maps it by hand.
    const header = columns.map((name) => (name === renamed.name ? 'Custom Title' : name));
    const titles = ['Áo thun', 'Quần jean', 'Giày thể thao', 'Mũ lưỡi trai'];
    fs.mkdirSync(path.join(imagesDir, 'photos'));
    const rows = titles.map((title, i) =>
      columns.map((name) => {
        if (name === renamed.name) return title;
        if (!images.has(name)) return fields.sampleRow[name];
        const file = `photos/${name}-${i + 1}.jpg`;
        fs.copyFileSync(SAMPLE_PHOTO, path.join(imagesDir, file));
        return file;
      }),
    );
    const csv = toCsv(header, rows);

    await page.goto(`${core.url}/ui/templates/${template.id}`);
    await page.getByRole('button', { name: 'Batch with this template' }).click();
    await page.getByRole('heading', { level: 1, name: 'New batch' }).waitFor();
    await dropFile(page, '.main', { name: 'products.csv', type: 'text/csv', content: csv });
    await expect
      .poll(() => page.locator('.data-preview tbody tr').count(), { timeout: 20_000 })
      .toBe(titles.length);
    await screenshot(page, 'wizard-source');

    await page.getByRole('button', { name: 'Next' }).click();
    const select = page.locator(`#map-${renamed.name}`);
    await select.waitFor();
    await select.selectOption('field:Custom Title');
    await page
      .locator('.mapping-layout table.data tbody tr')
      .first()
      .getByText(titles[0]!)
      .waitFor();
    await screenshot(page, 'wizard-mapping');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('File names').fill('{Custom Title}');
    await page.getByLabel('A folder on this computer').check();
    await page.getByLabel('Folder path').fill(imagesDir);
    await screenshot(page, 'wizard-output');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await page.getByText('Every row passed the check.').waitFor();
    await screenshot(page, 'wizard-review');

    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('[data-status="succeeded"]').first().waitFor({ timeout: 120_000 });
    await expect
      .poll(() => page.getByTestId('batch-succeeded').textContent())
      .toBe(String(titles.length));
    // Every finished row shows its (scaled-down) image.
    await waitForImages(page, '.results-row img');
    expect(await page.locator('.results-row img').count()).toBe(titles.length);
    await screenshot(page, 'batch-done');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export zip…' }).click(),
    ]);
    // Named after the template and the source, not the batch id.
    expect(download.suggestedFilename()).toBe(`${template.name} - products.zip`);
    const zip = new AdmZip(fs.readFileSync(await download.path()));
    const names = zip
      .getEntries()
      .map((e) => e.entryName)
      .filter((n) => !n.endsWith('/'));
    expect(names).toHaveLength(titles.length);
    for (const title of titles)
      expect(names.some((n) => n.normalize('NFC').startsWith(title.normalize('NFC')))).toBe(true);

    // The batch is listed with its status, as it will be after a restart.
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByTestId('batches-table').locator('[data-status="succeeded"]').waitFor();
    await screenshot(page, 'batches-list');
    expect(ui.consoleErrors).toEqual([]);
  });
});
