import { describe, expect, it } from 'vitest';
import { seriousViolations, type AxeFinding } from './axe.js';
import {
  screenshot,
  showScreen,
  switchSystemTheme,
  THEMES,
  useCoreAndUiOnce,
  type CoreAndUi,
  type Theme,
} from './harness.js';
import { wizardWithRows } from './wizard.js';

const TEMPLATE = 'tmpl_flash_sale_1111';
/** The surfaces hint text sits on. */
const SURFACES = ['--surface', '--bg', '--surface-2', '--surface-3', '--bg-sidebar'];

/** WCAG contrast of two colours written #rgb or #rrggbb (the build shortens #ffffff to #fff). */
function contrast(a: string, b: string): number {
  const luminance = (short: string) => {
    const hex = short.length === 4 ? short.replace(/[0-9a-f]/gi, (d) => d + d) : short;
    const [r, g, b2] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The words the walk clicks, in each language the UI speaks. */
const WORDS = {
  en: {
    next: 'Next',
    customise: 'Customise',
    done: 'Batch finished',
    open: 'Open image of row 1',
    close: 'Close',
    deleteBatch: 'Delete batch',
    rename: 'Rename ',
    remove: 'Delete ',
    back: 'My templates',
    addPage: 'Add a page',
  },
  vi: {
    next: 'Tiếp tục',
    customise: 'Tùy chỉnh',
    done: 'Lô ảnh đã xong',
    open: 'Mở ảnh của dòng 1',
    close: 'Đóng',
    deleteBatch: 'Xoá lô',
    rename: 'Đổi tên ',
    remove: 'Xóa ',
    back: 'Mẫu của tôi',
    addPage: 'Thêm trang',
  },
} as const;

/**
 * Each screen is checked in both themes where it stands: the UI follows the system's theme as it
 * changes (App.tsx), so the walk to a screen, its batch and its editor copy are made once per
 * language, not once per theme, and each theme's test reports what the walk found in it.
 */
describe.each(['en', 'vi'] as const)('accessibility in the %s UI', (language) => {
  /** axe's findings in each theme, by screen or dialog. */
  const found: Record<Theme, Record<string, AxeFinding[]>> = { light: {}, dark: {} };
  /** The colour tokens hints sit on, as each theme computes them. */
  const tokens: Partial<Record<Theme, Record<string, string>>> = {};

  const walk = async ({ core, ui }: CoreAndUi) => {
    const words = WORDS[language];
    const { page } = ui;
    let current: Theme = 'light';
    const useTheme = async (theme: Theme) => {
      await switchSystemTheme(page, theme);
      current = theme;
    };
    /**
     * Checks the screen as it stands in each theme, the one it is in first (a switch repaints the
     * whole page); `shot` names its screenshots.
     */
    const check = async (screen: string, shot?: string) => {
      // Let images, fonts and the first preview settle: contrast is measured as drawn.
      await page.waitForLoadState('networkidle');
      for (const theme of current === 'light' ? THEMES : [...THEMES].reverse()) {
        await useTheme(theme);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[theme][screen] = violations;
        if (shot) await screenshot(page, `a11y-${theme}-${language}-${shot}`);
      }
    };
    /** Opens a dialog, checks it, and closes it with Escape. */
    const checkDialog = async (screen: string, open: () => Promise<void>) => {
      await open();
      await page.locator('dialog[open]').waitFor();
      await check(screen);
      await page.keyboard.press('Escape');
      await page
        .locator('dialog[open]')
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      await page.waitForFunction(
        (css: string) =>
          (
            globalThis as unknown as { document: { querySelector(s: string): unknown } }
          ).document.querySelector(css) === null,
        'dialog[open]',
      );
    };
    // The token hints, "optional" and ids use, and the surfaces it sits on, in each theme.
    for (const theme of THEMES) {
      await useTheme(theme);
      tokens[theme] = await page.evaluate<Record<string, string>>(`(() => {
        const style = getComputedStyle(document.documentElement);
        const out = {};
        for (const name of ['--text-3', ...${JSON.stringify(SURFACES)}])
          out[name] = style.getPropertyValue(name).trim().toLowerCase();
        return out;
      })()`);
    }

    await page.locator('.template-card').first().waitFor();
    await check('catalog');
    await page.goto(`${core.url}/ui/templates/${TEMPLATE}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check('template');
    // A price that is no number, said over the preview.
    await page.getByLabel('Giá sale', { exact: true }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('abc');
    await page.getByTestId('preview-stale').waitFor();
    await check('template: a value that is no number');
    for (const route of ['my-templates', 'batches', 'brand', 'credits', 'api', 'settings']) {
      await showScreen(page, `/ui/${route}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await check(route);
    }

    await page.goto(`${core.url}/ui/batch`);
    await page.getByRole('listbox').waitFor();
    await check('wizard: template picker');
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await check('wizard: data');
    // One row whose price is no number: Review shows it, and its cell to fix.
    await wizardWithRows(page, core, { template: TEMPLATE, rows: [{}, { price: 'không rõ' }] });
    await check('wizard: data read');
    for (const step of ['mapping', 'output']) {
      await page.getByRole('button', { name: words.next, exact: true }).click();
      await check(`wizard: ${step}`);
      if (step !== 'mapping') continue;
      // Row 2's price is no number: the mapping step says so instead of previewing it.
      await page.getByTestId('row-picker').fill('2');
      await page.getByTestId('mapping-not-number').waitFor();
      await check('wizard: mapping, a price that is no number');
    }
    await page.getByRole('button', { name: words.next, exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await page.getByTestId('fix-cells').waitFor();
    await check('wizard: review with a cell to fix');
    await page.getByTestId('start-batch').click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('.results-row img').first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await check('batch results', 'batch');
    await checkDialog('batch: image', () =>
      page.getByRole('button', { name: words.open }).first().click(),
    );
    await checkDialog('batch: delete', () =>
      page.getByRole('button', { name: words.deleteBatch }).click(),
    );

    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('button', { name: words.customise }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    await page.getByTestId('size-scope').waitFor();
    await check('editor', 'editor');
    // With a second page the page switcher (a radio group) and its remove button show.
    await page.getByRole('button', { name: words.addPage }).click();
    await page.locator('.ed-pages [role="radio"]').nth(1).waitFor();
    await check('editor: two pages');
    await page.locator('.ed-pages [role="radio"]').first().click();
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    await page.getByLabel('X', { exact: true }).fill('90');
    await checkDialog('editor: leave unsaved', () =>
      page.getByRole('button', { name: words.back }).click(),
    );

    await page.goto(`${core.url}/ui/my-templates`);
    await page.locator('.ws-card').first().waitFor();
    await checkDialog('my templates: rename', () =>
      page
        .locator('.ws-card')
        .first()
        .getByRole('button', { name: new RegExp(`^${words.rename}`) })
        .click(),
    );
    await checkDialog('my templates: delete', () =>
      page
        .locator('.ws-card')
        .first()
        .getByRole('button', { name: new RegExp(`^${words.remove}`) })
        .click(),
    );
  };
  const session = useCoreAndUiOnce(
    {
      colorScheme: 'light',
      locale: language === 'vi' ? 'vi-VN' : 'en-US',
      allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
    },
    walk,
  );

  it.each(THEMES)(
    'axe finds nothing serious or critical on any screen or open dialog in the %s theme, and hint text reads at 4.5:1',
    (theme) => {
      const colours = tokens[theme]!;
      for (const surface of SURFACES) {
        expect(
          contrast(colours['--text-3']!, colours[surface]!),
          `${surface}: ${JSON.stringify(colours)}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
      expect(found[theme]).toEqual({});
      expect(session.ui.consoleErrors).toEqual([]);
    },
  );
});
