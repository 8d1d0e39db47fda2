import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations, type AxeFinding } from './axe.js';
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

describe.each(['light', 'dark'] as const)('accessibility in the %s theme', (theme) => {
  let core: CoreProcess;
  let ui: UiSession;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('axe finds nothing serious or critical on any screen, and hint text reads at 4.5:1', async () => {
    core = await startCore();
    ui = await openUi(core, { colorScheme: theme });
    const { page } = ui;
    const found: Record<string, AxeFinding[]> = {};
    const check = async (screen: string) => {
      // Let images, fonts and the first preview settle: contrast is measured as drawn.
      await page.waitForLoadState('networkidle');
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[screen] = violations;
    };

    // The token hints, "optional" and ids use, on every surface it sits on.
    const tokens = await page.evaluate<Record<string, string>>(`(() => {
      const style = getComputedStyle(document.documentElement);
      const out = {};
      for (const name of ['--text-3', '--surface', '--bg', '--surface-2', '--surface-3', '--bg-sidebar'])
        out[name] = style.getPropertyValue(name).trim().toLowerCase();
      return out;
    })()`);
    for (const surface of ['--surface', '--bg', '--surface-2', '--surface-3', '--bg-sidebar']) {
      expect(
        contrast(tokens['--text-3']!, tokens[surface]!),
        JSON.stringify(tokens),
      ).toBeGreaterThanOrEqual(4.5);
    }

    await page.locator('.template-card').first().waitFor();
    await check('catalog');
    await page.goto(`${core.url}/ui/templates/${TEMPLATE}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check('template');
    for (const route of ['my-templates', 'batches', 'brand', 'credits', 'api', 'settings']) {
      await page.goto(`${core.url}/ui/${route}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await check(route);
    }

    const fields = await templateFields(core, TEMPLATE);
    const columns = fields.fields.map((f) => f.name);
    await page.goto(`${core.url}/ui/batch?template=${TEMPLATE}`);
    await page.getByTestId('dropzone').waitFor();
    await check('wizard: data');
    await dropFile(page, '[data-testid="dropzone"]', {
      name: 'sale.csv',
      type: 'text/csv',
      content: toCsv(columns, [columns.map((c) => fields.sampleRow[c])]),
    });
    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    await check('wizard: data read');
    for (const step of ['mapping', 'output']) {
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await check(`wizard: ${step}`);
    }
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('preflight-summary').waitFor({ timeout: 30_000 });
    await check('wizard: review');
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/ui\/batches\/bat_/);
    await page.locator('.toast', { hasText: 'Batch finished' }).waitFor({ timeout: 60_000 });
    await page.locator('.results-row img').first().waitFor({ timeout: 30_000 });
    await check('batch results');
    await screenshot(page, `a11y-${theme}-batch`);

    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('button', { name: 'Customise' }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await check('editor');
    await screenshot(page, `a11y-${theme}-editor`);

    expect(found).toEqual({});
    expect(ui.consoleErrors).toEqual([]);
  });
});
