import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_PHOTO, templateFields, toCsv } from './csv.js';
import { screenshot, useCoreAndUi } from './harness.js';
import { referenceTemplate } from './reference-template.js';

describe('failed rows', () => {
  const session = useCoreAndUi({ launch: false });
  let imagesDir: string;
  beforeEach(() => {
    imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-images-'));
  });
  afterEach(() => {
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  it('lists the failed row with its error, and replays it once the missing image is in the folder', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const template = await referenceTemplate(core);
    const image = template.variables.find((v) => v.type === 'image' && !v.bindsTo)!;
    expect(image).toBeDefined();
    const fields = await templateFields(core, template.id);
    const images = new Set(template.variables.filter((v) => v.type === 'image').map((v) => v.name));
    // Every spreadsheet column of the template, with its sample values; image cells name files
    // in the images folder. Row 3 names a photo that is not there yet: the only problem.
    const columns = fields.fields.map((f) => f.name);
    fs.copyFileSync(SAMPLE_PHOTO, path.join(imagesDir, 'a.jpg'));
    fs.copyFileSync(SAMPLE_PHOTO, path.join(imagesDir, 'b.jpg'));
    const files = ['a.jpg', 'b.jpg', 'missing.jpg'];
    const csv = toCsv(
      columns,
      files.map((file) =>
        columns.map((name) =>
          name === image.name ? file : images.has(name) ? 'a.jpg' : fields.sampleRow[name],
        ),
      ),
    );

    await page.goto(`${core.url}/ui/batch?template=${template.id}`);
    await page.getByRole('heading', { level: 1, name: 'New batch' }).waitFor();
    // This time through the file chooser.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Choose file…' }).click(),
    ]);
    await chooser.setFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect
      .poll(() => page.locator('.data-preview tbody tr').count(), { timeout: 20_000 })
      .toBe(3);

    // Keyboard only from here: Next, Next, images folder, Next.
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('A folder on this computer').check();
    await page.getByLabel('Folder path').fill(imagesDir);
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');

    const problems = page.getByTestId('preflight-problems');
    await problems.waitFor({ timeout: 30_000 });
    await expect.poll(() => problems.locator('li').count()).toBe(1);
    expect(await problems.textContent()).toContain('Row 3');
    expect(await problems.textContent()).toContain('missing.jpg');
    await screenshot(page, 'wizard-preflight-problem');

    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('[data-status="partial"]').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('batch-failed').textContent()).toBe('1');
    await page.getByRole('radio', { name: /Failed only/ }).click();
    await page.locator('.results-row .result-error').first().waitFor();
    expect(await page.locator('.results-row').count()).toBe(1);
    // Said in the UI's words (and language), not the server's English.
    expect(await page.locator('.results-row .result-error').first().textContent()).toContain(
      'there is no image file “missing.jpg”',
    );
    await screenshot(page, 'batch-failed-rows');

    // Fix the data: the image the row names now exists. Replay renders the failed row only.
    fs.copyFileSync(SAMPLE_PHOTO, path.join(imagesDir, 'missing.jpg'));
    await page.getByRole('button', { name: 'Replay failed rows' }).click();
    await page.locator('[data-status="succeeded"]').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('batch-succeeded').textContent()).toBe('3');
    await screenshot(page, 'batch-replayed');
    expect(ui.consoleErrors).toEqual([]);
  });
});
