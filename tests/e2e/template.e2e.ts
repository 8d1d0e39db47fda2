import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfBoxes, poppler } from '../helpers/poppler.js';
import { screenshot, useCoreAndUi } from './harness.js';
import { referenceTemplate } from './reference-template.js';

describe('template detail', () => {
  const session = useCoreAndUi({ launch: false });

  it('re-renders the preview as values change, switches size and saves the image', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const template = await referenceTemplate(core);
    const text = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!;
    await page.goto(`${core.url}/ui/templates/${template.id}`);
    await page.getByRole('heading', { level: 1, name: template.name }).waitFor();

    const preview = page.getByTestId('preview-image');
    const count = async () => Number(await preview.getAttribute('data-preview-count'));
    // Free previews render as soon as the template opens.
    await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(0);
    const before = await preview.getAttribute('src');
    const rendered = await count();

    await page
      .getByLabel(text.label ?? text.name, { exact: true })
      .fill('Giày chạy bộ — Ưu đãi 50%');
    await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(rendered);
    expect(await preview.getAttribute('src')).not.toBe(before);
    await screenshot(page, 'template-edited');

    if (template.ratios.length > 1) {
      const next = template.ratios[1]!;
      const afterText = await count();
      await page.getByRole('radiogroup', { name: 'Size' }).getByRole('radio').nth(1).click();
      await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(afterText);
      expect(next).toBeTruthy();
      await screenshot(page, 'template-ratio');
    }

    // Save image… downloads a PNG and charges one credit.
    const balanceBefore = ((await (await core.api('/v1/account')).json()) as { balance: number })
      .balance;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save image…' }).click(),
    ]);
    const file = await download.path();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    const balanceAfter = ((await (await core.api('/v1/account')).json()) as { balance: number })
      .balance;
    expect(balanceAfter).toBe(balanceBefore - 1);

    // A value the server refuses is shown next to its field.
    const required = template.variables.find((v) => v.required && v.type === 'text' && !v.bindsTo);
    if (required) {
      const rendered2 = await count();
      await page.getByLabel(required.label ?? required.name, { exact: true }).fill('');
      await page.locator('.field-error').first().waitFor({ timeout: 20_000 });
      expect(await count()).toBe(rendered2);
      await screenshot(page, 'template-validation');
    }
    expect(ui.consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('saves a print layout as a PDF with crop marks when asked, the page grown to hold them', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_event_ticket`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const marks = page.getByLabel('Crop marks', { exact: true });
    const sizes = page.getByRole('radiogroup', { name: 'Size' });
    const formats = page.getByRole('radiogroup', { name: 'Format' });
    // A print template opens on its print layout, as a PDF (it used to open on Square 1:1).
    const ticket = sizes.getByRole('radio', { name: /^Ticket\b/ });
    await expect.poll(() => ticket.getAttribute('aria-checked')).toBe('true');
    expect(await formats.getByRole('radio', { name: 'PDF' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    // A pixel layout has no trim to mark.
    await sizes.getByRole('radio', { name: 'Square 1:1' }).click();
    expect(await marks.count()).toBe(0);
    await ticket.click();
    await marks.check();
    await screenshot(page, 'template-crop-marks');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save image…' }).click(),
    ]);
    const pdf = fs.readFileSync(await download.path());
    const [x0, , x1] = pdfBoxes(poppler('pdfinfo', pdf, ['-box'])).MediaBox!;
    // 70 mm trim; the marks start 3 mm out (past the 2 mm bleed), run 5 mm, then 1 mm slug.
    expect((x1! - x0!) / (72 / 25.4)).toBeCloseTo(88, 1);
  });
});
