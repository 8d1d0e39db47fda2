import { afterEach, describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import {
  dropFile,
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
} from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

async function toReview(core: CoreProcess, ui: UiSession): Promise<void> {
  const { page } = ui;
  const fields = await templateFields(core, TEMPLATE);
  const columns = fields.fields.map((f) => f.name);
  const row = columns.map((c) => fields.sampleRow[c]);
  await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
  await page.getByTestId('dropzone').waitFor();
  await dropFile(page, '[data-testid="dropzone"]', {
    name: 'sale.csv',
    type: 'text/csv',
    content: toCsv(columns, [row, row]),
  });
  await page.locator('.data-preview tbody tr').nth(1).waitFor({ timeout: 20_000 });
  for (let i = 0; i < 3; i += 1)
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
}

describe('credits and the wizard', () => {
  let core: CoreProcess;
  let ui: UiSession;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('shows the balance after credits are added, and New batch after a run starts afresh', async () => {
    core = await startCore({ credits: 1 });
    ui = await openUi(core);
    const { page } = ui;
    await toReview(core, ui);
    await page.locator('.banner.danger', { hasText: 'but the balance is 1' }).waitFor();
    const start = page.getByRole('button', { name: 'Start batch' });
    expect(await start.isDisabled()).toBe(true);

    await page.locator('nav.sidebar').getByRole('link', { name: 'Credits', exact: true }).click();
    await page.getByLabel('Amount').fill('5');
    await page.getByRole('button', { name: 'Add credits' }).click();
    await page.getByText('5 credits added').waitFor();
    await page.locator('nav.sidebar').getByRole('link', { name: 'New batch', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor();
    await page.locator('.stat', { hasText: 'Balance' }).getByText('6 credits').waitFor();
    await page.locator('.banner.success').waitFor();
    expect(await page.locator('.banner.danger').count()).toBe(0);
    await screenshot(page, 'wizard-credits-added');

    await start.click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('nav.sidebar').getByRole('link', { name: 'New batch', exact: true }).click();
    await page.getByTestId('dropzone').waitFor();
    expect(await page.getByTestId('preflight-summary').count()).toBe(0);
    expect(await page.locator('.data-preview').count()).toBe(0);
    await screenshot(page, 'wizard-after-run');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('a batch refused for credits spent meanwhile says so once and leaves no dead batch', async () => {
    core = await startCore({ credits: 2 });
    ui = await openUi(core);
    const { page } = ui;
    await toReview(core, ui);
    await page.locator('.banner.success').waitFor();
    // One credit is spent elsewhere (a script on the API) after the check.
    const fields = await templateFields(core, TEMPLATE);
    const render = await core.api('/v1/render', {
      method: 'POST',
      json: { templateId: TEMPLATE, values: fields.sampleRow },
    });
    expect(render.status).toBe(200);

    await page.getByRole('button', { name: 'Start batch' }).click();
    await page
      .locator('.banner.danger', { hasText: 'but the balance is 1' })
      .waitFor({ timeout: 30_000 });
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    expect(await page.locator('.banner.success').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start batch' }).isDisabled()).toBe(true);
    const batches = (await (await core.api('/v1/render-batches')).json()) as unknown[];
    expect(batches).toEqual([]);
    await screenshot(page, 'wizard-refused');
    expect(ui.consoleErrors).toEqual([]);
  });
});
