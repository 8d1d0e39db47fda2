import { describe, expect, it } from 'vitest';
import AdmZip from 'adm-zip';
import type { Page } from 'playwright-core';
import { pdfBoxes, poppler } from '../helpers/poppler.js';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi, type CoreProcess } from './harness.js';

/**
 * The wizard from a template's page to its Output step: "Batch with this template", a CSV of the
 * template's sample row (each row changed where a test wants) dropped and read in full, and the
 * Mapping step passed as it stands.
 */
async function walkToOutput(
  page: Page,
  core: CoreProcess,
  options: {
    template: string;
    fileName: string;
    /** One entry per row: the cells that differ from the sample row, by column. */
    rows: Record<string, unknown>[];
  },
): Promise<void> {
  const fields = await templateFields(core, options.template);
  const columns = fields.fields.map((f) => f.name);
  const rows = options.rows.map((overrides) =>
    columns.map((column) => (column in overrides ? overrides[column] : fields.sampleRow[column])),
  );
  await page.goto(`${core.url}/ui/templates/${options.template}`);
  await page.getByRole('button', { name: 'Batch with this template' }).click();
  await page.getByRole('heading', { level: 1, name: 'New batch' }).waitFor();
  await dropFile(page, '.main', {
    name: options.fileName,
    type: 'text/csv',
    content: toCsv(columns, rows),
  });
  await expect
    .poll(() => page.locator('.data-preview tbody tr').count(), { timeout: 20_000 })
    .toBe(rows.length);
  // Upload → Mapping → Output.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** From the Output step: Review, its pre-flight, Start batch. Returns the new batch's id. */
async function startFromOutput(page: Page, urlWait: { timeout?: number } = {}): Promise<string> {
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Start batch' }).click();
  await page.waitForURL(/\/ui\/batches\/bat_/, urlWait);
  return /bat_[A-Za-z0-9_-]+/.exec(page.url())![0];
}

describe('batch wizard: sheets for printing', () => {
  const session = useCoreAndUi({ launch: false });

  it('offers sheets for a print layout with the suggested preset, previews one sheet front and back, and starts a batch of sheets', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await walkToOutput(page, core, {
      template: 'tmpl_name_badge',
      fileName: 'attendees.csv',
      rows: ['Linh', 'Minh', 'Anh', 'Quân', 'Hạnh'].map((firstName) => ({ firstName })),
    });

    // A print template opens on its print layout, as a PDF of sheets on the preset that holds
    // it: an organiser does not have to find them (it used to open on Square 1:1, as PNG).
    const badge = page.getByRole('radio', { name: /^Name badge(?!,)/ });
    await expect.poll(() => badge.getAttribute('aria-checked')).toBe('true');
    const format = page.getByRole('radiogroup', { name: 'Image format' });
    expect(await format.getByRole('radio', { name: 'PDF' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(
      await page
        .getByLabel('Sheets for printing: several rows a sheet, with cut marks')
        .isChecked(),
    ).toBe(true);
    // A pixel layout offers no sheets.
    await page.getByRole('radio', { name: 'Square 1:1' }).click();
    await expect.poll(() => page.getByText('Sheets for printing').count()).toBe(0);
    await badge.click();
    const preset = page.getByLabel('Sheet', { exact: true });
    await expect.poll(() => preset.inputValue()).toBe('a6-on-a4');
    const preview = page.locator('svg.sheet-preview');
    await expect.poll(() => preview.locator('[data-slot]').count()).toBe(4);
    await page.getByRole('radio', { name: 'Flip on long edge' }).click();
    await page.getByText('4 a sheet (2 × 2) on 210 × 297 mm').waitFor();
    await page.getByRole('checkbox', { name: /Cut and stack/ }).check();
    await screenshot(page, 'wizard-output-sheets');
    // The back mirrors the front: place 1 moves from the left half to the right.
    const x = async () => Number(await preview.locator('[data-slot="1"] text').getAttribute('x'));
    const front = await x();
    await page.locator('.sheet-preview-box').getByRole('radio', { name: 'Back' }).click();
    await expect.poll(x).toBeCloseTo(210 - front, 3);
    await screenshot(page, 'wizard-output-sheets-back');

    const id = await startFromOutput(page);
    const batch = (await (await core.api(`/v1/render-batches/${id}`)).json()) as {
      format: string;
      target: string;
      sheets: unknown;
    };
    expect(batch).toMatchObject({
      format: 'pdf',
      target: 'badge',
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge', marks: 'crop', cutAndStack: true },
    });
    expect(ui.consoleErrors).toEqual([]);
  });

  it('asks which page images of a two-page layout draw, and sends no batch the API would refuse', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const refused: string[] = [];
    const created: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/render-batches'))
        created.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
    });
    page.on('response', (response) => {
      if (response.status() >= 400)
        refused.push(`${response.request().method()} ${response.url()} ${response.status()}`);
    });
    await walkToOutput(page, core, {
      template: 'tmpl_name_badge',
      fileName: 'attendees.csv',
      rows: [{ firstName: 'Linh' }, { firstName: 'Minh' }],
    });

    // Single files as PNG of the two-page badge: an image is one page, so which?
    const format = page.getByRole('radiogroup', { name: 'Image format' });
    await page.getByLabel('Single files: one file a row').check();
    await format.getByRole('radio', { name: 'PNG' }).click();
    const pagePicker = page.getByRole('radiogroup', { name: 'Page as an image' });
    await pagePicker.waitFor();
    expect(await page.getByText('This layout has 2 pages and an image holds one').count()).toBe(1);
    expect(await page.getByText('Single files: one file a row').count()).toBe(1);
    await pagePicker.getByRole('radio', { name: 'Page 2' }).click();
    await screenshot(page, 'wizard-output-image-page');
    // PDF has every page: no page to choose.
    await format.getByRole('radio', { name: 'PDF' }).click();
    expect(await pagePicker.count()).toBe(0);
    await format.getByRole('radio', { name: 'PNG' }).click();
    expect(
      await pagePicker.getByRole('radio', { name: 'Page 2' }).getAttribute('aria-checked'),
    ).toBe('true');

    const id = await startFromOutput(page, { timeout: 20_000 });
    // One request, the one the API takes: page 2 of the badge as PNG, and it renders.
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ format: 'png', target: 'badge', page: 2 });
    await expect
      .poll(
        async () =>
          ((await (await core.api(`/v1/render-batches/${id}`)).json()) as { status: string })
            .status,
        { timeout: 60_000 },
      )
      .toBe('succeeded');
    expect(refused).toEqual([]);
    expect(ui.consoleErrors).toEqual([]);
  });

  it('renders single ticket PDFs with crop marks when asked, each page grown to hold them', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await walkToOutput(page, core, {
      template: 'tmpl_event_ticket',
      fileName: 'tickets.csv',
      rows: [{}, {}],
    });

    // PDF first: a two-page layout as images would need a page.
    await page
      .getByRole('radiogroup', { name: 'Image format' })
      .getByRole('radio', { name: 'PDF' })
      .click();
    await page.getByRole('radio', { name: /^Ticket\b/ }).click();
    // Offered with single files only: sheets have marks of their own.
    await page.getByLabel('Single files: one file a row').check();
    const marks = page.getByLabel('Crop marks outside the trim and bleed');
    await marks.check();
    await screenshot(page, 'wizard-output-crop-marks');
    const id = await startFromOutput(page);
    let status = '';
    await expect
      .poll(
        async () => {
          status = (
            (await (await core.api(`/v1/render-batches/${id}`)).json()) as { status: string }
          ).status;
          return status;
        },
        { timeout: 60_000 },
      )
      .toBe('succeeded');
    // The results list each PDF as a document, not as an image thumbnail it cannot have.
    await expect
      .poll(() => page.locator('.results-row .result-document').count(), { timeout: 20_000 })
      .toBe(2);
    expect(await page.locator('.results-row img').count()).toBe(0);
    await screenshot(page, 'batch-results-pdf-rows');
    const link = (await (await core.api(`/v1/render-batches/${id}/bundle`)).json()) as {
      url: string;
    };
    const zip = new AdmZip(Buffer.from(await (await fetch(link.url)).arrayBuffer()));
    const pdfs = zip.getEntries().filter((e) => e.entryName.endsWith('.pdf'));
    expect(pdfs).toHaveLength(2);
    const boxes = pdfBoxes(poppler('pdfinfo', pdfs[0]!.getData(), ['-box']));
    // 70 × 100 mm trim, 2 mm bleed; the marks start 3 mm out and run 5 mm, then 1 mm of slug.
    const mm = 72 / 25.4;
    const [mx0, , mx1] = boxes.MediaBox!;
    const [tx0, , tx1] = boxes.TrimBox!;
    expect(tx1! - tx0!).toBeCloseTo(70 * mm, 0);
    expect(mx1! - mx0!).toBeCloseTo((70 + 2 * 9) * mm, 0);
    expect(ui.consoleErrors).toEqual([]);
  });
});
