import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';
import { wizardWithRows } from './wizard.js';

describe('the Vietnamese UI', () => {
  const session = useCoreAndUi({ locale: 'vi-VN' });

  it('names categories, the built-in brand, credits and landmarks in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const body = () => page.locator('body').innerText();
    await page.locator('.template-card').first().waitFor();
    const card = page.locator('.template-card', { hasText: 'Flash sale 11.11' });
    expect(await card.locator('.template-sub').innerText()).toContain('Khuyến mãi · Flash sale');
    const categories = await page
      .getByRole('combobox', { name: 'Danh mục', exact: true })
      .locator('option')
      .allInnerTexts();
    expect(categories).toContain('Sự kiện');
    expect(categories).not.toContain('Event');
    expect(await page.getByRole('region', { name: 'Thông báo' }).count()).toBe(1);
    expect(await body()).not.toMatch(/Tín dụng|tín dụng/);
    await screenshot(page, 'vi-catalog');

    await page.goto(`${core.url}/ui/templates/tmpl_flash_sale_1111`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('.editor-side header').innerText()).toContain('Khuyến mãi');
    expect(await body()).not.toMatch(/\bDefault\b|Tín dụng|tín dụng/);

    await page.locator('nav.sidebar').getByRole('link', { name: 'Thương hiệu' }).click();
    await page.locator('.kit-brand').first().waitFor();
    expect(await page.locator('.kit-brand').first().innerText()).toContain('Mặc định');
    expect(await body()).not.toMatch(/\bDefault\b/);
    await screenshot(page, 'vi-brand');

    // A grant through the API without a note: the core writes its own English note.
    const granted = await core.api('/v1/account/credits', { method: 'POST', json: { amount: 5 } });
    expect(granted.status, await granted.clone().text()).toBeLessThan(300);
    await page.locator('nav.sidebar').getByRole('link', { name: 'Lượt dựng ảnh' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lượt dựng ảnh' }).waitFor();
    expect(await body()).not.toMatch(/Tín dụng|tín dụng/);
    // The opening grant's line says so in Vietnamese, not in the core's English note.
    const ledger = page.getByTestId('ledger');
    await ledger.locator('tbody tr').first().waitFor();
    expect(await ledger.innerText()).toContain('Số lượt ban đầu');
    expect(await ledger.innerText()).not.toContain('Opening balance');
    await ledger.getByText('Nạp qua API').waitFor();
    expect(await ledger.innerText()).not.toContain('Granted through the API');
    await screenshot(page, 'vi-credits');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('names the sheet presets of a print batch in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await wizardWithRows(page, core, {
      template: 'tmpl_name_badge',
      rows: [{ firstName: 'Linh' }],
    });
    for (let i = 0; i < 2; i += 1) await page.getByRole('button', { name: 'Tiếp tục' }).click();
    const presets = await page
      .getByLabel('Khổ giấy', { exact: true })
      .locator('option')
      .allInnerTexts();
    expect(presets[0]).toBe('4 × A6 trên khổ A4 (gợi ý)');
    expect(presets.join('\n')).not.toMatch(/\bon A4\b/);
    await screenshot(page, 'vi-wizard-sheets');
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('the template page’s sizes in Vietnamese', () => {
  const session = useCoreAndUi({ locale: 'vi-VN' });

  it('shows the sizes each on one line, one row on a laptop and none alone on a row at 1024 px', async () => {
    const { core, ui } = session;
    const { page } = ui;
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 768 });
      await page.goto(`${core.url}/ui/templates/tmpl_flash_sale_1111`);
      const sizes = page.getByRole('radiogroup', { name: 'Kích thước' });
      await sizes.waitFor();
      const boxes = await page.evaluate<{ top: number; lines: number }[]>(`(() =>
        [...document.querySelectorAll('[role="radiogroup"][aria-label="Kích thước"] [role="radio"]')].map((radio) => {
          const line = parseFloat(getComputedStyle(radio).lineHeight);
          return { top: Math.round(radio.getBoundingClientRect().top), lines: Math.round(radio.clientHeight / line) };
        }))()`);
      expect(boxes.length).toBe(5);
      expect(boxes.map((b) => b.lines <= 1)).not.toContain(false);
      // One row on a laptop screen; where they must wrap, no size sits alone on its row.
      const rows = new Map<number, number>();
      for (const { top } of boxes) rows.set(top, (rows.get(top) ?? 0) + 1);
      if (width >= 1366) expect(rows.size).toBe(1);
      else expect([...rows.values()]).not.toContain(1);
      await screenshot(page, `template-sizes-vi-${width}`);
    }
  });
});
