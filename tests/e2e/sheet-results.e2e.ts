import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { poppler } from '../helpers/poppler.js';
import { screenshot, useCoreAndUi, type CoreProcess } from './harness.js';

/**
 * A finished sheet batch's page says what was made (one line), offers each PDF by itself, lists
 * its sheets with the rows on each, and shows each row's place instead of a file it does not
 * have.
 */

function badges(n: number): Record<string, string>[] {
  return Array.from({ length: n }, (_, i) => ({
    eventName: 'Hội nghị 2026',
    firstName: `Guest${i + 1}`,
    lastName: 'Nguyễn',
    role: 'Designer',
    company: 'Acme',
    profileUrl: `https://example.com/p/${i + 1}`,
  }));
}

/** A batch of 10 badges, 4 a sheet with backs; returns its id once it has finished. */
async function sheetBatch(core: CoreProcess, sheets: Record<string, unknown>): Promise<string> {
  const res = await core.api('/v1/render-batches', {
    method: 'POST',
    json: {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      format: 'pdf',
      sourceType: 'json-array',
      source: { records: badges(10) },
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge', ...sheets },
    },
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const batch = (await (await core.api(`/v1/render-batches/${id}`)).json()) as {
      status: string;
    };
    if (!['queued', 'running'].includes(batch.status)) {
      expect(batch.status).toBe('succeeded');
      return id;
    }
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function openBatch(page: Page, core: CoreProcess, id: string): Promise<void> {
  await page.goto(`${core.url}/ui/batches/${id}`);
  await page.getByTestId('sheet-summary').waitFor({ timeout: 20_000 });
  await page.getByTestId('sheet-list').first().waitFor({ timeout: 20_000 });
}

describe('a finished sheet batch', () => {
  const session = useCoreAndUi({ launch: false });

  it('says what was made, downloads its PDF, lists its sheets and places each row', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await sheetBatch(core, {});
    await openBatch(page, core, id);

    // 10 rows at 4 a sheet: 3 sheets, each a front and a back.
    expect(await page.getByTestId('sheet-summary').textContent()).toBe(
      '1 PDF · 6 A4 pages, 3 fronts + 3 backs · 4 rows a sheet',
    );
    const sheets = page.getByRole('list', { name: 'Sheets of sheets-1.pdf' });
    expect(await sheets.getByRole('listitem').allTextContents()).toEqual([
      'Sheet 1pages 1–2rows 1–4',
      'Sheet 2pages 3–4rows 5–8',
      'Sheet 3pages 5–6rows 9, 10',
    ]);

    // Rows have no file of their own: their place stands where "1.pdf" used to.
    await page.locator('.results-row[data-row-index="5"]').waitFor();
    const rowFiles = await page.locator('.results-row .result-file').allTextContents();
    expect(rowFiles.length).toBeGreaterThan(0);
    for (const text of rowFiles) expect(text).not.toMatch(/\.pdf$/);
    expect(await page.locator('.results-row[data-row-index="5"] .result-file').textContent()).toBe(
      'Sheet 2 · position 2',
    );
    expect(await page.locator('.results-row .result-thumb.empty').count()).toBe(0);
    await screenshot(page, 'sheet-results-en');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('sheets-1.pdf');
    const pdf = fs.readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(poppler('pdfinfo', pdf)).toMatch(/^Pages:\s+6$/m);
    expect(ui.consoleErrors).toEqual([]);
  }, 120_000);
});

describe('a finished sheet batch, in Vietnamese', () => {
  const session = useCoreAndUi({ launch: false, locale: 'vi-VN' });

  it('says it in Vietnamese, and lists cut-and-stack rows compactly', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await sheetBatch(core, { cutAndStack: true, sheetsPerPart: 2 });
    await openBatch(page, core, id);

    // 2 sheets a part: 8 rows in sheets-1.pdf, 2 in sheets-2.pdf.
    expect(await page.getByTestId('sheet-summary').textContent()).toBe(
      '2 tệp PDF · 6 trang A4, 3 mặt trước + 3 mặt sau · 4 dòng mỗi tờ',
    );
    // Cut and stack: each sheet holds every other row of its part.
    const first = page.getByRole('list', { name: 'Các tờ của sheets-1.pdf' });
    expect(await first.getByRole('listitem').allTextContents()).toEqual([
      'Tờ 1trang 1–2dòng 1, 3, 5, 7',
      'Tờ 2trang 3–4dòng 2, 4, 6, 8',
    ]);
    expect(await page.getByRole('button', { name: 'Tải PDF' }).count()).toBe(2);
    await page.locator('.results-row[data-row-index="2"]').waitFor();
    expect(await page.locator('.results-row[data-row-index="2"] .result-file').textContent()).toBe(
      'Tờ 1 · vị trí 2',
    );
    await screenshot(page, 'sheet-results-vi');
    expect(ui.consoleErrors).toEqual([]);
  }, 120_000);
});
