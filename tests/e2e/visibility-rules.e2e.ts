import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import { customiseInEditor, screenshot, useCoreAndUi } from './harness.js';

const PROMO = 'tmpl_product_promo';

describe('the rule builder of a layer', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('shows a layer when any of two conditions holds, waits for a number that reads as one, and saves the rule', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, PROMO);
    const read = async () =>
      (
        (await (await core.api(`/v1/templates/${id}`)).json()) as WorkspaceTemplateDetail
      ).template.layouts.square!.layers.find((layer) => layer.id === 'subtitle')!.visibleWhen;

    await page.locator('.ed-box[data-layer-id="subtitle"]').click();
    await page.getByLabel('Show this layer').selectOption('any');
    const first = page.getByTestId('visible-condition-1');
    await first.getByLabel('Variable').selectOption('price');
    await first.getByLabel('Test').selectOption('gt');
    await first.getByLabel('Value').fill('1.000.000');
    // en-US reads 1.000.000 as no number: the form says so and the template keeps its last rule.
    expect(await first.getByText('Type a number').count()).toBe(1);
    await first.getByLabel('Value').fill('1,000,000');
    expect(await first.getByText('Type a number').count()).toBe(0);

    await page.getByRole('button', { name: 'Add a condition' }).click();
    const second = page.getByTestId('visible-condition-2');
    await second.getByLabel('Variable').selectOption('discountLabel');
    await second.getByLabel('Test').selectOption('in');
    await second.getByLabel('Values, separated by commas').fill('Sale, Tết');
    await second.scrollIntoViewIfNeeded();
    await screenshot(page, 'visibility-rule-builder');
    // The new fields are labelled, grouped and announced as axe wants.
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    // "Unsaved changes" gives way to "Saving…" before the server has the template: poll it.
    await expect.poll(read).toEqual({
      any: [
        { var: 'price', gt: 1_000_000 },
        { var: 'discountLabel', in: ['Sale', 'Tết'] },
      ],
    });

    // Down to one condition: saved as today's single form; then always.
    await first.getByRole('button', { name: 'Remove condition 1' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(read).toEqual({ var: 'discountLabel', in: ['Sale', 'Tết'] });
    await page.getByLabel('Show this layer').selectOption('always');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(read).toBeUndefined();
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('the rule builder in Vietnamese', () => {
  const session = useCoreAndUi({
    launch: false,
    locale: 'vi-VN',
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('names the modes, tests and fields in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/${PROMO}`);
    await page.getByRole('button', { name: 'Tùy chỉnh' }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await page.locator('.ed-box[data-layer-id="subtitle"]').click();
    await page.getByLabel('Hiện lớp này').selectOption('all');
    const first = page.getByTestId('visible-condition-1');
    await first.getByLabel('Phép so sánh').selectOption('between');
    await first.getByLabel('Từ').fill('10');
    await first.getByLabel('Đến (tính cả)').fill('5');
    expect(await first.getByRole('alert').textContent()).toBe('Số đầu không được lớn hơn số sau');
    await first.scrollIntoViewIfNeeded();
    await screenshot(page, 'visibility-rule-builder-vi');
  });
});
