import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
  sentRenderValues,
} from './harness.js';

describe('date fields on the template page', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('shows and reads a Vietnamese template’s date day first, as the image prints it, whatever the browser’s order', async () => {
    // A browser that writes dates month first (en-US), showing a vi-VN template.
    ui = await openUi(core, { launch: false });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_job_opening`);
    const deadline = page.getByLabel(/^Hạn nộp hồ sơ/);
    await deadline.waitFor();
    // The sample 2026-12-15, as the image prints it; a native field showed 12/15/2026.
    expect(await deadline.inputValue()).toBe('15/12/2026');
    expect(await deadline.getAttribute('placeholder')).toBe('dd/mm/yyyy');
    const sent = sentRenderValues(ui, 'deadline');
    await deadline.fill('14/02/2026');
    await expect.poll(() => sent.at(-1), { timeout: 20_000 }).toBe('2026-02-14');
    await screenshot(page, 'date-field-vi-template');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('keeps month first for an en-US template, and offers the system picker', async () => {
    ui = await openUi(core, { launch: false, locale: 'vi-VN' });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_countdown`);
    const date = page.getByLabel(/^Date(optional)?$/);
    await date.waitFor();
    expect(await date.inputValue()).toBe('09/17/2026');
    await page.getByRole('button', { name: 'Chọn ngày' }).first().waitFor();
    expect(ui.consoleErrors).toEqual([]);
  });
});
