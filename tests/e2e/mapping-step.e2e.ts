import { describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { dropFile, screenshot, useCoreAndUi } from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('the mapping step', () => {
  const session = useCoreAndUi({ launch: false, locale: 'vi-VN' });

  it('suggests “Ảnh” for the product photo (“Ảnh sản phẩm”), maps it with one click, and shows row 1 as it will print, in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const fields = await templateFields(core, TEMPLATE);
    // The shop's sheet calls the photo column "Ảnh"; every other column has the field's name.
    const columns = fields.fields.map((f) => (f.name === 'photo' ? 'Ảnh' : f.name));
    // Its photos are files beside the sheet, named by a path.
    const csv = toCsv(columns, [
      fields.fields.map((f) => (f.name === 'photo' ? 'anh/nova-x5.jpg' : fields.sampleRow[f.name])),
    ]);
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'san-pham.csv',
      type: 'text/csv',
      content: csv,
    });
    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();

    const near = page.getByTestId('near-photo');
    await near.waitFor();
    expect(await near.innerText()).toContain('Cột “Ảnh” có vẻ là trường này.');
    // Only where a column fits: columns named like their fields get no suggestion.
    expect(await page.locator('[data-testid^="near-"]').count()).toBe(1);
    await screenshot(page, 'mapping-near-vi');
    // Row 1 is shown as the images will print it, not as the cells hold it.
    const printed = (name: string) =>
      page
        .locator('tr', { has: page.locator(`select[data-variable="${name}"]`) })
        .locator('.mapping-sample');
    expect((await printed('price').innerText()).replace(/\s/g, ' ')).toBe('5.990.000 ₫');
    expect(await printed('saleDate').innerText()).toBe('11/11/2026');
    expect(await printed('discount').innerText()).toBe('-20%');
    await near.getByRole('button', { name: 'Dùng cột này' }).click();
    expect(await page.locator('select[data-variable="photo"]').inputValue()).toBe('field:Ảnh');
    expect(await near.count()).toBe(0);
    // Until the images folder is chosen, the preview says where to choose it: the step by the
    // name the step bar gives it.
    const note = page.getByText(/cho đến khi bạn chọn thư mục ảnh/);
    await note.waitFor();
    expect(await note.innerText()).toContain('ở bước Đầu ra.');
    expect(await page.getByRole('navigation', { name: 'Các bước tạo lô' }).innerText()).toContain(
      'Đầu ra',
    );
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says each choice whole in its select on a laptop screen, in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.setViewportSize({ width: 1366, height: 768 });
    const fields = await templateFields(core, TEMPLATE);
    // Columns for some fields only: the others say there is no column.
    const columns = fields.fields
      .map((f) => f.name)
      .filter((name) => name !== 'logo' && name !== 'timeWindow');
    const csv = toCsv(columns, [columns.map((c) => fields.sampleRow[c])]);
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'a.csv',
      type: 'text/csv',
      content: csv,
    });
    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Tiếp tục', exact: true }).click();
    await page.locator('select[data-variable]').first().waitFor();
    await screenshot(page, 'mapping-selects-vi-1366');
    // Each select's chosen text, measured in its own font, against the room inside it.
    const cut = await page.evaluate<string[]>(`(() => {
      const canvas = document.createElement('canvas').getContext('2d');
      const out = [];
      for (const select of document.querySelectorAll('select[data-variable]')) {
        const style = getComputedStyle(select);
        canvas.font = style.font;
        const text = select.options[select.selectedIndex].text;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (canvas.measureText(text).width > room) out.push(select.dataset.variable + ': ' + text);
      }
      return out;
    })()`);
    expect(cut).toEqual([]);
  });
});
