import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { screenshot, useCoreAndUi } from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_event_ticket';

describe('serial numbers in the batch wizard', () => {
  const session = useCoreAndUi({ launch: false });

  it('numbers the rows from start, step, digits and prefix, counts them, and holds Next on a bad field', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await wizardWithRows(page, core, {
      template: TEMPLATE,
      rows: [{ attendeeName: 'An' }, { attendeeName: 'Bình' }, { attendeeName: 'Chi' }],
    });
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    await page.locator('#map-ticketId').selectOption('serial');
    const fields = page.getByTestId('serial-ticketId');
    await fields.getByLabel('Start').fill('1001');
    await fields.getByLabel('Step').fill('5');
    await fields.getByLabel('Digits').fill('6');
    await fields.getByLabel('Prefix').fill('TIX-');
    expect(await page.getByTestId('serial-ticketId-example').textContent()).toBe(
      'Rows 1, 2, 3: TIX-001001, TIX-001006, TIX-001011',
    );
    await page.locator('#map-seat').selectOption('gen:total');
    // The data preview draws each row's own serial and the sheet's row count.
    const ticketColumn = await page
      .locator('.table.data thead th')
      .allInnerTexts()
      .then((names) => names.findIndex((name) => name === 'Ticket number'));
    const cells = page.locator(`.table.data tbody tr td:nth-child(${ticketColumn + 1})`);
    expect(await cells.allInnerTexts()).toEqual(['TIX-001001', 'TIX-001006', 'TIX-001011']);
    const seatColumn = await page
      .locator('.table.data thead th')
      .allInnerTexts()
      .then((names) => names.findIndex((name) => name === 'Seat or zone'));
    const seats = page.locator(`.table.data tbody tr td:nth-child(${seatColumn + 1})`);
    expect(await seats.allInnerTexts()).toEqual(['3', '3', '3']);
    await screenshot(page, 'serial-numbers-mapping');

    // A count down past 0 by the last row, then too many digits: Next waits, saying why.
    await fields.getByLabel('Start').fill('5');
    await fields.getByLabel('Step').fill('-3');
    await fields.getByRole('alert').first().waitFor();
    expect(await next.isDisabled()).toBe(true);
    expect(await page.getByTestId('wizard-bad-serial').textContent()).toContain(
      'Correct the serial',
    );
    await fields.getByLabel('Step').fill('-2');
    await fields.getByLabel('Digits').fill('25');
    expect(await fields.getByRole('alert').textContent()).toContain('From 0 to 20 digits');
    expect(await next.isDisabled()).toBe(true);
    await screenshot(page, 'serial-numbers-problem');
    // The new fields are labelled, grouped and announced as axe wants.
    expect(await seriousViolations(page)).toEqual([]);
    await fields.getByLabel('Digits').fill('3');
    expect(await next.isDisabled()).toBe(false);

    // The server agrees: pre-flight passes every row with the serial binding.
    await next.click();
    await next.click();
    await page.getByText('Every row passed the check.').waitFor({ timeout: 60_000 });
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('serial numbers in the Vietnamese wizard', () => {
  const session = useCoreAndUi({ launch: false, locale: 'vi-VN' });

  it('offers the serial number and the row count in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await wizardWithRows(page, core, { template: TEMPLATE, rows: [{}, {}] });
    await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();
    const select = page.locator('#map-ticketId');
    expect(await select.locator('option').allInnerTexts()).toEqual(
      expect.arrayContaining(['Số sê-ri…', 'Tổng số dòng (cho “n trên N”)']),
    );
    await select.selectOption('serial');
    const fields = page.getByTestId('serial-ticketId');
    await fields.getByLabel('Tiền tố').fill('VÉ-');
    expect(await page.getByTestId('serial-ticketId-example').textContent()).toBe(
      'Dòng 1, 2, 3: VÉ-1, VÉ-2, VÉ-3',
    );
    await screenshot(page, 'serial-numbers-vi');
  });
});
