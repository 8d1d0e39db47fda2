import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openUi,
  screenshot,
  showScreen,
  startCore,
  type CoreProcess,
  type UiSession,
} from './harness.js';

const SCREENS: { path: string; name: string; ready: string }[] = [
  { path: '/ui/', name: 'catalog', ready: '.template-card img' },
  {
    path: '/ui/templates/tmpl_product_promo',
    name: 'template',
    ready: '[data-testid="preview-image"]',
  },
  { path: '/ui/batch', name: 'wizard', ready: '.stepper' },
  { path: '/ui/batches', name: 'batches', ready: 'h1' },
  { path: '/ui/brand', name: 'brand', ready: '.brand-layout' },
  { path: '/ui/credits', name: 'credits', ready: '[data-testid="ledger"]' },
  { path: '/ui/api', name: 'api', ready: '[data-testid="api-keys"]' },
  { path: '/ui/settings', name: 'settings', ready: '[data-testid="language-select"]' },
];

describe('language and themes', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('switches to Vietnamese in Settings and keeps it, in light and dark', async () => {
    ui = await openUi(core);
    const { page } = ui;
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('language-select').selectOption('vi');
    await page.getByRole('heading', { level: 1, name: 'Cài đặt' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect(
      await page.getByRole('navigation', { name: 'Điều hướng chính' }).textContent(),
    ).toContain('Mẫu thiết kế');

    // Saved on the server: a reload keeps it.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Cài đặt' }).waitFor();

    for (const theme of ['light', 'dark'] as const) {
      await page.getByRole('radio', { name: theme === 'light' ? 'Sáng' : 'Tối' }).click();
      await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe(theme);
      for (const screen of SCREENS) {
        await showScreen(page, screen.path);
        await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
        await screenshot(page, `${screen.name}-${theme}-vi`);
      }
      await showScreen(page, '/ui/settings');
    }
    expect(ui.consoleErrors).toEqual([]);
  });

  it('follows the system language and colour scheme on first start', async () => {
    ui = await openUi(core, { locale: 'vi-VN', colorScheme: 'dark' });
    const { page } = ui;
    await page.getByRole('heading', { level: 1, name: 'Mẫu thiết kế' }).waitFor();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.getByRole('link', { name: 'Cài đặt' }).click();
    await page.getByTestId('language-select').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    for (const screen of SCREENS) {
      await showScreen(page, screen.path);
      await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
      await screenshot(page, `${screen.name}-dark-en`);
    }
    expect(ui.consoleErrors).toEqual([]);
  });
});
