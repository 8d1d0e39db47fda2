import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Request } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Brand } from '../../shared/brand-schemas.js';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { screenshot, showScreen, useCoreAndUi, type CoreProcess } from './harness.js';

const PRIMARY = '#1E7B34';
const FAMILY = 'Kit Display';

async function brandsOf(core: CoreProcess): Promise<Brand[]> {
  return (await (await core.api('/v1/brands')).json()) as Brand[];
}

describe('brand kit', () => {
  const session = useCoreAndUi({ launch: false });
  let fontDir: string;
  beforeEach(() => {
    fontDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-font-'));
  });
  afterEach(() => {
    fs.rmSync(fontDir, { recursive: true, force: true });
  });

  it('creates a second brand, makes it the default, uploads a font for its headings, and renders a template with a chosen brand', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/brand`);
    await page.getByRole('heading', { level: 1, name: 'Brand kit' }).waitFor();

    const preview = page.getByTestId('brand-preview-image');
    const count = async () => Number(await preview.getAttribute('data-preview-count'));
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(0);
    /**
     * A hash of the preview's pixels as shown. Its blob: URL is new on every render and revoked
     * when the next one lands, so the page hashes the decoded image, never fetches the URL again.
     */
    const previewHash = () =>
      page.evaluate<number>(`(async () => {
        const img = document.querySelector('[data-testid="brand-preview-image"]');
        // A new render landing mid-decode rejects this one; the next decode sees the new image.
        for (let attempt = 0; ; attempt++) {
          try {
            await img.decode();
            break;
          } catch (error) {
            if (attempt >= 20) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        return pixels.reduce((h, x) => (Math.imul(h, 31) + x) >>> 0, 7);
      })()`);
    const firstImage = await previewHash();

    // A second brand, started from the default one, with its own primary colour.
    await page.getByRole('button', { name: 'New brand' }).click();
    const dialog = page.getByRole('dialog', { name: 'New brand' });
    await dialog.getByLabel('Brand name').fill('Kit Green');
    await dialog.getByRole('button', { name: 'Create brand' }).click();
    await page.getByRole('form', { name: 'Editing “Kit Green”' }).waitFor();
    const rendered = await count();
    await page.getByLabel('Primary hex value').fill(PRIMARY);
    const saveBar = page.getByTestId('brand-save-bar').getByRole('status');
    await expect.poll(() => saveBar.getAttribute('data-state')).toBe('unsaved');
    // The preview follows the edit before it is saved.
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(rendered);
    await expect.poll(previewHash, { timeout: 30_000 }).not.toBe(firstImage);
    await page.getByRole('button', { name: 'Save brand' }).click();
    await expect.poll(() => saveBar.getAttribute('data-state')).toBe('saved');

    // Text that is not a colour yet is said to be so, and nothing claims to be saved.
    await page.getByLabel('Accent hex value').fill('zzz');
    await page.getByText('Not a colour: use #RGB or #RRGGBB').waitFor();
    await expect.poll(() => saveBar.getAttribute('data-state')).toBe('unsaved');
    expect(await page.getByRole('button', { name: 'Save brand' }).isDisabled()).toBe(true);
    // New brand asks before it throws unsaved edits away.
    await page.getByRole('button', { name: 'New brand' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await discard.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('brand-save-bar').getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => saveBar.getAttribute('data-state')).toBe('saved');
    expect(await page.getByLabel('Accent hex value').inputValue()).toBe('');

    // Make it the default: the old default can now be deleted, this one cannot.
    await page.getByRole('button', { name: 'Make default' }).click();
    await page.getByRole('button', { name: 'Kit Green Default' }).waitFor();
    const brands = await brandsOf(core);
    const green = brands.find((b) => b.name === 'Kit Green')!;
    const original = brands.find((b) => b.name !== 'Kit Green')!;
    expect(green).toMatchObject({ isDefault: true, profile: { colours: { primary: PRIMARY } } });
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await page.getByText('The default brand cannot be deleted').waitFor();

    // A font of our own: a bundled TTF renamed, so it does not clash with the bundled family.
    const file = path.join(fontDir, 'KitDisplay-Regular.ttf');
    fs.writeFileSync(file, testFont(MONTSERRAT, FAMILY));
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Upload font…' }).click(),
    ]);
    await chooser.setFiles(file);
    const fonts = page.getByTestId('custom-fonts');
    await fonts.getByText(FAMILY).waitFor({ timeout: 20_000 });
    expect(await fonts.textContent()).toContain('Vietnamese');
    expect(await fonts.textContent()).toContain('Weight 400');
    await page.getByLabel('Heading font').selectOption(FAMILY);
    await page.getByRole('button', { name: 'Save brand' }).click();
    await expect.poll(() => saveBar.getAttribute('data-state')).toBe('saved');
    await expect
      .poll(async () => (await brandsOf(core)).find((b) => b.id === green.id)?.profile.fonts)
      .toEqual({ heading: FAMILY, body: null });
    await screenshot(page, 'brand-kit-light-en');

    // The same screen in dark and in Vietnamese.
    const system = (await (await core.api('/v1/system')).json()) as {
      preferences: Record<string, unknown>;
    };
    for (const [theme, language] of [
      ['dark', 'en'],
      ['light', 'vi'],
      ['dark', 'vi'],
    ] as const) {
      const res = await core.api('/v1/system/preferences', {
        method: 'PUT',
        json: { ...system.preferences, theme, language },
      });
      expect(res.status).toBe(200);
      await page.reload();
      await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe(theme);
      await page
        .getByRole('heading', { level: 1, name: language === 'vi' ? 'Bộ nhận diện' : 'Brand kit' })
        .waitFor();
      await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(0);
      await fonts.getByText(FAMILY).waitFor();
      await screenshot(page, `brand-kit-${theme}-${language}`);
    }
    await core.api('/v1/system/preferences', {
      method: 'PUT',
      json: { ...system.preferences, theme: 'light', language: 'en' },
    });

    // On a template, the brand picker names the chosen brand in the preview request.
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    const select = page.getByLabel('Brand', { exact: true });
    await select.waitFor();
    const templatePreview = page.getByTestId('preview-image');
    await expect
      .poll(async () => Number(await templatePreview.getAttribute('data-preview-count')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const isPreview = (r: Request) =>
      r.url().endsWith('/v1/render/preview') && r.method() === 'POST';
    const [request] = await Promise.all([
      page.waitForRequest(isPreview, { timeout: 20_000 }),
      select.selectOption(original.id),
    ]);
    expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({
      templateId: 'tmpl_product_promo',
      brand: original.id,
    });
    await screenshot(page, 'brand-kit-template-select');
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('an empty brand kit', () => {
  const session = useCoreAndUi({ launch: false });

  it('shows a colour never chosen as unset, not as the picker’s black', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/brand`);
    const pickers = page.locator('.colour-input input[type="color"]');
    await pickers.first().waitFor();
    expect(await pickers.count()).toBeGreaterThan(0);
    await screenshot(page, 'brand-kit-unset-colours');
    for (const picker of await pickers.all()) {
      // The swatch's middle row of pixels, read from the screen as the user sees it.
      const { data, info } = await sharp(await picker.screenshot())
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const y = Math.floor(info.height / 2);
      let darkest = 255;
      for (let x = Math.floor(info.width / 4); x < (info.width * 3) / 4; x += 1) {
        const i = (y * info.width + x) * 3;
        darkest = Math.min(darkest, Math.max(data[i]!, data[i + 1]!, data[i + 2]!));
      }
      expect(darkest).toBeGreaterThan(100);
    }
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('templates whose colours come from the brand', () => {
  const session = useCoreAndUi({ launch: false });

  it('say so on the template page, and the badge leads to the brand kit', async () => {
    const { core, ui } = session;
    const { page } = ui;
    // A template with brand-bound colours: the badge, which goes to Brand.
    await page.goto(`${core.url}/ui/templates/tmpl_event_announcement`);
    const badge = page.getByTestId('uses-brand-colours');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('Uses your brand colours');
    await screenshot(page, 'template-uses-brand-colours');
    await badge.click();
    await page.getByRole('heading', { level: 1, name: 'Brand' }).waitFor();
    // One whose colours are its own: no badge.
    await showScreen(page, '/ui/templates/tmpl_black_friday');
    await page.getByRole('heading', { level: 1, name: 'Black Friday sale' }).waitFor();
    await page.getByTestId('preview-image').waitFor();
    expect(await page.getByTestId('uses-brand-colours').count()).toBe(0);
    expect(ui.consoleErrors).toEqual([]);
  });
});
