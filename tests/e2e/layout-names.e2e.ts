import { describe, expect, it } from 'vitest';
import { seriousViolations, type AxeFinding } from './axe.js';
import {
  screenshot,
  switchSystemTheme,
  THEMES,
  useCoreAndUiOnce,
  type CoreAndUi,
  type Theme,
} from './harness.js';

const BADGE = 'tmpl_name_badge';
const TICKET = 'tmpl_event_ticket';

/**
 * The size names are read once per language; the badge's screen is then checked in each theme
 * where it stands, switched as the system's theme changes (the UI follows it), and each theme's
 * test reports what was seen in it.
 */
describe.each([
  ['en', 'Name badge · 3 × 4 in print at 300 dpi', 'Ticket'],
  ['vi', 'Thẻ tên · bản in 3 × 4 inch, 300 dpi', 'Vé'],
] as const)('print layouts by name, %s UI', (language, badge, ticket) => {
  let badgeSizes: string[] = [];
  let ticketSizes: string[] = [];
  const found: Partial<Record<Theme, AxeFinding[]>> = {};

  const walk = async ({ core, ui }: CoreAndUi) => {
    const { page } = ui;
    const sizes = async (templateId: string) => {
      await page.goto(`${core.url}/ui/templates/${templateId}`);
      const radios = page.locator('.preview-bar [role="radio"]');
      await radios.first().waitFor();
      return radios.allTextContents();
    };
    badgeSizes = await sizes(BADGE);
    await page.waitForLoadState('networkidle');
    for (const theme of THEMES) {
      await switchSystemTheme(page, theme);
      found[theme] = await seriousViolations(page);
      await screenshot(page, `layout-names-${language}-${theme}`);
    }
    ticketSizes = await sizes(TICKET);
  };
  const session = useCoreAndUiOnce(
    { locale: language === 'vi' ? 'vi-VN' : 'en-US', colorScheme: 'light' },
    walk,
  );

  it.each(THEMES)(
    'calls a print layout by its human name and its printed size in the UI language, never its raw name, in the %s theme',
    (theme) => {
      expect(badgeSizes).toContain(badge);
      expect(badgeSizes.some((label) => /^badge\b/.test(label))).toBe(false);
      expect(ticketSizes.some((label) => label.startsWith(`${ticket} · `))).toBe(true);
      expect(found[theme]).toEqual([]);
      expect(session.ui.consoleErrors).toEqual([]);
    },
  );
});
