import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import { pageCount } from '../../shared/layout-pages.js';
import { planSheet, sheetItemOf, suggestSheetPreset } from '../../shared/sheet-options.js';
import { RATIO_NAMES } from '../../shared/ratios.js';
import { buildJob, readCatalogTemplates, stressValues } from '../../scripts/preview-template.js';
import { poppler } from '../helpers/poppler.js';

/**
 * The catalog's print layouts: every one renders its sample values as a PDF page of its trim
 * plus bleed, nothing cut short, every font embedded; the print templates offer every ratio too,
 * and each has a sheet preset its trim fits.
 */
const catalog = readCatalogTemplates();
const PT = 72 / 25.4;

const printLayouts = catalog.flatMap((entry) =>
  Object.entries(entry.template.layouts)
    .filter(([, layout]) => layout.page)
    .map(([name]) => ({ entry, name, label: `${entry.slug}/${name}` })),
);

describe('print layouts of the catalog', () => {
  it('cover the certificate, the name badge (front and back), the menu and the new print templates', () => {
    const labels = printLayouts.map((p) => p.label);
    for (const expected of [
      'certificate-award/a4',
      'name-badge/badge',
      'menu-price-list/a4',
      'shelf-price-tag/tag',
      'event-ticket/ticket',
      'raffle-ticket/ticket',
    ])
      expect(labels).toContain(expected);
    const badge = catalog.find((e) => e.slug === 'name-badge')!.template.layouts.badge!;
    expect(pageCount(badge)).toBe(2);
    for (const slug of ['shelf-price-tag', 'event-ticket', 'raffle-ticket']) {
      const template = catalog.find((e) => e.slug === slug)!.template;
      for (const ratio of RATIO_NAMES)
        expect(template.layouts[ratio], `${slug} ${ratio}`).toBeDefined();
    }
    expect(catalog.find((e) => e.slug === 'shelf-price-tag')!.template.locale).toBe('vi-VN');
  });

  it('suggest a sheet that holds them: 4 × A6 for the badge, Avery L7163 for the shelf tag, 8 × A7 for the ticket, 10 cards for the raffle ticket', () => {
    const suggested = (slug: string, name: string) => {
      const layout = catalog.find((e) => e.slug === slug)!.template.layouts[name]!;
      const item = sheetItemOf(layout)!;
      const preset = suggestSheetPreset(item);
      expect(preset && planSheet({ preset }, item).ok).toBe(true);
      return preset;
    };
    expect(suggested('name-badge', 'badge')).toBe('a6-on-a4');
    expect(suggested('shelf-price-tag', 'tag')).toBe('avery-l7163');
    expect(suggested('event-ticket', 'ticket')).toBe('a7-on-a4');
    expect(suggested('raffle-ticket', 'ticket')).toBe('business-cards-10');
  });

  it('set the badge’s first name at 36–48 pt, readable at 2 m, for short, long and two-word names', async () => {
    const entry = catalog.find((e) => e.slug === 'name-badge')!;
    const dpi = entry.template.layouts.badge!.page!.dpi;
    const runs = [
      entry.template.sampleValues,
      stressValues(entry.template, 'short'),
      stressValues(entry.template, 'long'),
      { ...entry.template.sampleValues, firstName: 'Phương Thảo' },
      { ...entry.template.sampleValues, firstName: 'Alexandra' },
    ];
    const sizes: number[] = [];
    for (const values of runs) {
      const result = await renderJob({
        ...buildJob(entry, 'square', values),
        ratio: 'badge',
        measureOnly: true,
      });
      if (!result.ok) throw new Error(result.message);
      const name = result.report.layers.find((l) => l.id === 'first-name')!;
      sizes.push(Math.round(((name.fittedSize * 72) / dpi) * 10) / 10);
    }
    for (const pt of sizes) {
      expect(pt).toBeGreaterThanOrEqual(36);
      expect(pt).toBeLessThanOrEqual(48);
    }
    // The sample's "Linh" takes the full 48 pt.
    expect(sizes[0]).toBe(48);
  });

  it('keep a long one-word first name whole on the badge, smaller, rather than break it between its letters', async () => {
    const entry = catalog.find((e) => e.slug === 'name-badge')!;
    const dpi = entry.template.layouts.badge!.page!.dpi;
    for (const firstName of ['Bartholomew', 'Maximilianová']) {
      const result = await renderJob({
        ...buildJob(entry, 'square', { ...entry.template.sampleValues, firstName }),
        ratio: 'badge',
        measureOnly: true,
      });
      if (!result.ok) throw new Error(result.message);
      const name = result.report.layers.find((l) => l.id === 'first-name')!;
      // One line is the name whole ("Bartho / lomew" was two, at 36 pt).
      expect({ firstName, lines: name.lines, truncated: name.truncated }).toEqual({
        firstName,
        lines: 1,
        truncated: false,
      });
      // Still large from a few metres: two thirds of the 36 pt minimum at the least.
      expect((name.fittedSize * 72) / dpi).toBeGreaterThanOrEqual(24);
    }
  });

  it.each(printLayouts)(
    '$label renders its sample as a PDF of its trim and bleed, nothing cut short',
    async ({ entry, name }) => {
      const result = await renderJob({
        // The values resolve the same for every layout; the job then draws the print one.
        ...buildJob(entry, 'square', entry.template.sampleValues),
        ratio: name,
        format: 'pdf',
      });
      if (!result.ok) throw new Error(result.message);
      expect(
        result.report.layers.filter((l) => l.truncated || l.overflow).map((l) => l.id),
      ).toEqual([]);
      expect(result.report.missingGlyphs).toEqual([]);
      const page = entry.template.layouts[name]!.page!;
      const mm = page.unit === 'mm' ? 1 : 25.4;
      const info = poppler('pdfinfo', result.bytes);
      const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
      expect(Number(size[1])).toBeCloseTo((page.width + 2 * page.bleed) * mm * PT, 0);
      expect(Number(size[2])).toBeCloseTo((page.height + 2 * page.bleed) * mm * PT, 0);
      for (const font of poppler('pdffonts', result.bytes).split('\n').slice(2).filter(Boolean))
        expect(font).toMatch(/\syes\s+yes\s+yes\s/);
    },
  );
});
