import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

const BADGE = 'tmpl_name_badge';
const TICKET = 'tmpl_event_ticket';

describe.each([
  ['en', 'Name badge · 3 × 4 in print at 300 dpi', 'Ticket'],
  ['vi', 'Thẻ tên · bản in 3 × 4 inch, 300 dpi', 'Vé'],
] as const)('print layouts by name, %s UI', (language, badge, ticket) => {
  let core: CoreProcess;
  let ui: UiSession;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('calls a print layout by its human name and its printed size in the UI language, never its raw name, in the light and dark themes', async () => {
    core = await startCore();
    ui = await openUi(core, {
      locale: language === 'vi' ? 'vi-VN' : 'en-US',
      colorScheme: 'light',
    });
    const { page } = ui;
    const sizes = async (templateId: string) => {
      await page.goto(`${core.url}/ui/templates/${templateId}`);
      const radios = page.locator('.preview-bar [role="radio"]');
      await radios.first().waitFor();
      return radios.allTextContents();
    };
    const badgeSizes = await sizes(BADGE);
    expect(badgeSizes).toContain(badge);
    expect(badgeSizes.some((label) => /^badge\b/.test(label))).toBe(false);
    await page.waitForLoadState('networkidle');
    // In each theme, switched on the screen as the system's theme changes (the UI follows it).
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe(theme);
      expect(await seriousViolations(page), theme).toEqual([]);
      await screenshot(page, `layout-names-${language}-${theme}`);
    }

    const ticketSizes = await sizes(TICKET);
    expect(ticketSizes.some((label) => label.startsWith(`${ticket} · `))).toBe(true);
    expect(ui.consoleErrors).toEqual([]);
  });
});
