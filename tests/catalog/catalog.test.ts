import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRAND_ROLES, Template, VARIABLE_TYPES, type Layer } from '../../shared/template-format.js';
import { RATIO_SIZES } from '../../shared/ratios.js';
import { formatNumber } from '../../shared/value-text.js';
import { layoutPages } from '../../shared/layout-pages.js';
import { renderJob } from '../../main/engine/render-job.js';
import {
  buildJob,
  ratiosOf,
  readCatalogTemplates,
  STRESS_MODES,
  stressValues,
} from '../../scripts/preview-template.js';

const catalog = readCatalogTemplates();
const BRAND_COLOUR_ROLES = BRAND_ROLES.filter((role) => role.endsWith('Color'));

/** Every string and every `{ var }` object anywhere in a JSON value. */
function walk(value: unknown, visit: (node: unknown) => void): void {
  visit(value);
  if (Array.isArray(value)) value.forEach((item) => walk(item, visit));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => walk(v, visit));
}

/** The area a layer covers; a layer turned a quarter covers its box turned about its centre. */
function box(layer: Layer) {
  const quarter = Math.abs(layer.rotation ?? 0) % 180 === 90;
  const [width, height] = quarter ? [layer.height, layer.width] : [layer.width, layer.height];
  const x0 = layer.x + (layer.width - width) / 2;
  const y0 = layer.y + (layer.height - height) / 2;
  return { x0, y0, x1: x0 + width, y1: y0 + height };
}

/** Two layers shown only for different values of the same enum never appear together. */
function exclusive(a: Layer, b: Layer): boolean {
  const [wa, wb] = [a.visibleWhen, b.visibleWhen].map((rule) =>
    rule && 'var' in rule ? rule : undefined,
  );
  return Boolean(
    wa?.equals !== undefined &&
    wb?.equals !== undefined &&
    wa.var === wb.var &&
    wa.equals !== wb.equals,
  );
}

describe('built-in catalog', () => {
  it('holds at least 24 templates, at least 8 of them for the Vietnamese market, with unique ids', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(24);
    expect(catalog.filter((e) => e.template.market === 'vietnam').length).toBeGreaterThanOrEqual(8);
    const ids = catalog.map((e) => e.template.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names each category once, without singular and plural or case twins', () => {
    const categories = [...new Set(catalog.map(({ template }) => template.category))];
    const key = (name: string) => name.toLowerCase().replace(/s$/, '');
    const twins = categories.filter((c, i) => categories.findIndex((d) => key(d) === key(c)) !== i);
    expect(twins).toEqual([]);
  });

  it('uses every variable type, a brand.logo binding and a brand colour binding', () => {
    const variables = catalog.flatMap((e) => e.template.variables);
    for (const type of VARIABLE_TYPES) {
      expect(
        variables.some((v) => v.type === type),
        `no template uses a ${type} variable`,
      ).toBe(true);
    }
    expect(variables.some((v) => v.bindsTo === 'brand.logo')).toBe(true);
    expect(variables.some((v) => v.bindsTo && BRAND_COLOUR_ROLES.includes(v.bindsTo))).toBe(true);
  });

  describe.each(catalog)('$slug', ({ slug, dir, raw, template }) => {
    it('parses with the Template schema, named after its folder', () => {
      expect(Template.safeParse(raw).success).toBe(true);
      expect(template.id).toBe(`tmpl_${slug.replace(/-/g, '_')}`);
      expect([1, 2]).toContain(template.schemaVersion);
      expect(template.createdAt >= '2025-01-01' && template.createdAt <= '2026-12-31').toBe(true);
    });

    it('offers at least 3 ratios, each at its exact canvas size', () => {
      const ratios = ratiosOf(template);
      expect(ratios.length).toBeGreaterThanOrEqual(3);
      for (const ratio of ratios) {
        const layout = template.layouts[ratio]!;
        expect([layout.width, layout.height]).toEqual([
          RATIO_SIZES[ratio].width,
          RATIO_SIZES[ratio].height,
        ]);
      }
    });

    it('refers only to declared variables', () => {
      const declared = new Set(template.variables.map((v) => v.name));
      const used = new Set<string>();
      walk(template.layouts, (node) => {
        if (typeof node === 'string') {
          for (const m of node.matchAll(/\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g)) used.add(m[1]!);
        } else if (node && typeof node === 'object' && 'var' in node) {
          used.add(String((node as { var: unknown }).var));
        }
      });
      expect([...used].filter((name) => !declared.has(name))).toEqual([]);
      expect(Object.keys(template.sampleValues).filter((name) => !declared.has(name))).toEqual([]);
    });

    it('ships every asset it names', () => {
      const assets: string[] = [];
      walk(
        { layouts: template.layouts, variables: template.variables, sample: template.sampleValues },
        (node) => {
          if (typeof node === 'string' && node.startsWith('asset:')) assets.push(node.slice(6));
          else if (node && typeof node === 'object' && 'asset' in node) {
            assets.push(String((node as { asset: unknown }).asset));
          }
        },
      );
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) expect(existsSync(path.join(dir, asset)), asset).toBe(true);
    });

    it('has sample values for every required variable without a default', () => {
      const missing = template.variables
        .filter((v) => v.required && v.default === undefined)
        .filter((v) => template.sampleValues[v.name] === undefined)
        .map((v) => v.name);
      expect(missing).toEqual([]);
    });

    it('keeps text and codes in boxes that stay inside the canvas and never overlap', () => {
      const pages = Object.entries(template.layouts).flatMap(([name, layout]) =>
        layoutPages(layout).map((page, i) => ({ name: `${name}#${i + 1}`, layout, page })),
      );
      for (const { name: ratio, layout, page } of pages) {
        // A print layout keeps to its page's safe area; a post keeps 48 px clear.
        const { page: print } = layout;
        const margin = print
          ? (print.safe * print.dpi) / (print.unit === 'mm' ? 25.4 : 1) - 0.5
          : 48;
        const texts = page.layers.filter(
          (l) => l.kind === 'text' || l.kind === 'list' || l.kind === 'qr' || l.kind === 'barcode',
        );
        for (const layer of texts) {
          const b = box(layer);
          const where = `${ratio}/${layer.id}`;
          expect(b.x0 >= margin && b.y0 >= margin, where).toBe(true);
          expect(b.x1 <= layout.width - margin && b.y1 <= layout.height - margin, where).toBe(true);
          if (layer.kind === 'text') {
            expect(layer.fit, where).toBe('shrink');
            expect(layer.minSize, where).toBeDefined();
            expect(layer.maxLines, where).toBeDefined();
            // One line at the smallest size must fit, or shrinking cannot save a long text.
            const padding = 2 * (layer.background?.padding ?? 0);
            expect(layer.height - padding >= layer.minSize! * layer.lineHeight, where).toBe(true);
          }
        }
        for (const [i, a] of texts.entries()) {
          for (const b of texts.slice(i + 1)) {
            if (exclusive(a, b)) continue;
            const [p, q] = [box(a), box(b)];
            const overlap = p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1;
            expect(overlap, `${ratio}: ${a.id} overlaps ${b.id}`).toBe(false);
          }
        }
      }
    });

    it.each(ratiosOf(template))(
      'renders %s with sample and stress values, no text overflowing',
      async (ratio) => {
        const runs: Array<[string, Record<string, unknown>]> = [
          ['sample', template.sampleValues],
          ...STRESS_MODES.map((m): [string, Record<string, unknown>] => [
            m,
            stressValues(template, m),
          ]),
        ];
        const entry = { slug, dir, raw, template };
        for (const [name, values] of runs) {
          // Drawn, not encoded: what is checked is the layout report (the encoders have their
          // own tests, and the catalog's bytes are pinned by tests/engine/golden.test.ts).
          const result = await renderJob({ ...buildJob(entry, ratio, values), measureOnly: true });
          if (!result.ok) throw new Error(`${name}: ${result.message}`);
          expect(result.report.width).toBe(RATIO_SIZES[ratio].width);
          expect(
            result.report.layers.filter((l) => l.overflow).map((l) => l.id),
            name,
          ).toEqual([]);
          expect(result.report.missingGlyphs, name).toEqual([]);
          if (name === 'sample') {
            // The sample is what the catalog shows: nothing in it may be cut short.
            expect(result.report.layers.filter((l) => l.truncated).map((l) => l.id)).toEqual([]);
          }
        }
      },
    );
  });

  it('formats Vietnamese prices in đồng and dates as dd/MM/yyyy', () => {
    for (const { template } of catalog.filter((e) => e.template.market === 'vietnam')) {
      expect(template.locale).toBe('vi-VN');
      for (const v of template.variables) {
        if (v.type === 'number' && v.format?.style === 'currency') {
          expect(v.format.currency).toBe('VND');
          // Compact money reads the way Vietnamese shops write it: 12,5 tỷ, 990K.
          const [amount, shown] =
            v.format.notation === 'compact'
              ? [12_500_000_000, '12,5\u00a0tỷ']
              : [1250000, '1.250.000\u00a0₫'];
          expect(formatNumber(amount, v.format, v.locale ?? template.locale)).toBe(shown);
        }
        if (v.type === 'date') expect(v.format).toBe('dd/MM/yyyy');
      }
    }
  });
});
