import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { dropSampleCsv } from './csv.js';
import {
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  waitForImages,
  type UiSession,
  customiseInEditor,
  useCoreAndUi,
} from './harness.js';

const TEMPLATE = 'tmpl_flash_sale_1111';

describe('a laptop-sized window', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('keeps the editor panels apart at 1366×768 and its toolbar on one line at 1024 px', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.setViewportSize({ width: 1366, height: 768 });
    await customiseInEditor(page, core, TEMPLATE);
    // Measured once the preview is in: the layout is final only then.
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await waitForImages(page, '[data-testid="editor-preview"]');
    const panels = () =>
      page.evaluate<{
        layersBottom: number;
        layersOverflow: number;
        variablesTop: number;
      }>(`(() => {
        const layers = document.querySelector('.ed-layers');
        const variables = document.querySelector('.ed-variables');
        return {
          layersBottom: layers.getBoundingClientRect().bottom,
          layersOverflow: layers.scrollHeight - layers.clientHeight,
          variablesTop: variables.getBoundingClientRect().top,
        };
      })()`);
    const at1366 = await panels();
    expect(at1366.layersOverflow).toBeLessThanOrEqual(1);
    expect(at1366.layersBottom).toBeLessThanOrEqual(at1366.variablesTop + 1);
    // Every layer is reachable by scrolling the column, and none is drawn over a variable.
    const last = page.locator('.ed-layer').last();
    await last.scrollIntoViewIfNeeded();
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(at1366.variablesTop + 1);
    await screenshot(page, 'narrow-editor-1366');

    await page.setViewportSize({ width: 1024, height: 768 });
    const name = (await page.getByRole('textbox', { name: 'Template name' }).boundingBox())!;
    const save = (await page.getByRole('button', { name: 'Save', exact: true }).boundingBox())!;
    expect(Math.abs(save.y + save.height / 2 - (name.y + name.height / 2))).toBeLessThan(4);
    expect(save.x + save.width).toBeLessThanOrEqual(1024);
    const at1024 = await panels();
    expect(at1024.layersBottom).toBeLessThanOrEqual(at1024.variablesTop + 1);
    await screenshot(page, 'narrow-editor-1024');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('shows the Mapping step and its preview without sideways scrolling at 1024 px', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.setViewportSize({ width: 1024, height: 768 });
    await dropSampleCsv(page, core, TEMPLATE);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const preview = page.locator('.mapping-preview-frame img').first();
    await preview.waitFor({ timeout: 30_000 });
    // Scroll containers that scroll sideways. Not a cell cut short with … (it is meant to be), nor
    // the filled rows' wide table: a labelled region of its own, one column a variable.
    const overflow = await page.evaluate<string[]>(`[...document.querySelectorAll('main, main *')]
      .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
      .filter((e) => e.getAttribute('role') !== 'region')
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '/' + e.clientWidth)`);
    expect(overflow).toEqual([]);
    // A required value's label keeps to one line; its "Required" badge goes below it instead.
    const label = await page.evaluate<{ height: number; lineHeight: number }>(`(() => {
      const strong = document.querySelector('label[for="map-productName"] strong');
      return {
        height: strong.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(strong).lineHeight),
      };
    })()`);
    expect(label.height).toBeLessThan(label.lineHeight * 1.5);
    const box = (await preview.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(box.y).toBeLessThan(768);
    await screenshot(page, 'narrow-mapping-1024');
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe.each([
  ['en', 'light', 'Customise'],
  ['vi', 'dark', 'Tùy chỉnh'],
] as const)(
  "the editor's Variables panel at 1024×700, %s UI, %s theme",
  (language, theme, customise) => {
    let core: CoreProcess;
    let ui: UiSession;
    afterEach(async () => {
      await ui?.close();
      await core?.stop();
    });

    it('shows every variable label whole, none cut down to a letter', async () => {
      core = await startCore();
      ui = await openUi(core, {
        locale: language === 'vi' ? 'vi-VN' : 'en-US',
        colorScheme: theme,
        allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
      });
      const { page } = ui;
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.goto(`${core.url}/ui/templates/${TEMPLATE}`);
      await page.getByRole('button', { name: customise }).click();
      await page.waitForURL(/\/ui\/editor\/wtpl_/);
      await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
      await page.locator('.ed-var-head').first().waitFor();
      // Each label (the text beside the variable's name and type) as drawn against all its text.
      const labels = await page.evaluate<
        { text: string; scrollWidth: number; clientWidth: number; right: number; panel: number }[]
      >(`[...document.querySelectorAll('.ed-var-head > span:not(.chip)')].map((label) => ({
      text: label.textContent,
      scrollWidth: label.scrollWidth,
      clientWidth: label.clientWidth,
      right: label.getBoundingClientRect().right,
      panel: label.closest('.ed-variables').getBoundingClientRect().right,
    }))`);
      expect(labels.length).toBeGreaterThan(3);
      for (const label of labels) {
        expect(label.scrollWidth, label.text).toBeLessThanOrEqual(label.clientWidth);
        expect(label.right, label.text).toBeLessThanOrEqual(label.panel);
      }
      await page.locator('.ed-variables').scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `narrow-variables-1024-${language}-${theme}`);
      expect(ui.consoleErrors).toEqual([]);
    });
  },
);
