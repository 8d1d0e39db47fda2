import { describe, expect, it } from 'vitest';
import { foldForSearch } from '../../shared/fold-text.js';
import type { CatalogListItem } from '../../shared/api-schemas.js';
import { screenshot, useCoreAndUi, waitForImages } from './harness.js';

describe('catalog', () => {
  const session = useCoreAndUi();

  it('shows every template with its thumbnail, filters by category and market, and searches without diacritics', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const items = (await (await core.api('/v1/catalog')).json()) as CatalogListItem[];
    expect(items.length).toBeGreaterThan(0);

    // A fresh install invites the user to fill the brand kit (brand-first-run.e2e.ts); not now.
    await page.getByRole('button', { name: 'Later' }).click();
    await page.waitForSelector('.template-card img');
    const cards = page.locator('.template-card');
    expect(await cards.count()).toBe(items.length);
    // Thumbnails below the fold load as they are scrolled to: scroll through the whole grid,
    // then every card must show its image.
    for (let i = 0; i < items.length; i += 3) await cards.nth(i).scrollIntoViewIfNeeded();
    await cards.last().scrollIntoViewIfNeeded();
    await waitForImages(page, '.template-card img', 60_000);
    await cards.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'catalog-light-en');

    // Category filter: only that category's templates remain.
    const category = items[0]!.category;
    await page.getByLabel('Category', { exact: true }).selectOption(category);
    await expect
      .poll(() => page.locator('.template-card').count())
      .toBe(items.filter((i) => i.category === category).length);
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // Market filter.
    await page.getByLabel('Market', { exact: true }).selectOption('vietnam');
    await expect
      .poll(() => page.locator('.template-card').count())
      .toBe(items.filter((i) => i.market === 'vietnam').length);
    await page.getByLabel('Market', { exact: true }).selectOption('');

    // Search as you type, folded: a name with marks is found by its plain letters.
    const target = items.find((i) => foldForSearch(i.name) !== i.name.toLowerCase()) ?? items[0]!;
    const query = foldForSearch(target.name).split(/\s+/).slice(0, 2).join(' ');
    await page.getByLabel('Search templates').fill(query);
    await expect
      .poll(() => page.locator('.template-name').allTextContents())
      .toContain(target.name);
    await screenshot(page, 'catalog-search');

    await page.getByLabel('Search templates').fill('zzzz no such template');
    await page.getByText('No template matches').waitFor();
    await page.getByLabel('Search templates').fill('');

    // Opening a template shows its detail.
    await page.getByRole('link', { name: target.name }).click();
    await page.getByRole('heading', { level: 1, name: target.name }).waitFor();
    await expect.poll(() => page.url()).toContain(`/ui/templates/${target.id}`);
    expect(ui.consoleErrors).toEqual([]);
  });
});
