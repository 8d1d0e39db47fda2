import { describe, expect, it } from 'vitest';
import { EMPTY_BRAND_PROFILE, BrandProfile } from '../../shared/brand-profile.js';
import { Template } from '../../shared/template-format.js';
import { deterministicUuid, planBindings, valuesForRow } from '../../main/batch/bindings.js';

const template = Template.parse({
  schemaVersion: 1,
  id: 'tmpl_binding_test',
  name: 'Binding test',
  category: 'Test',
  subCategory: 'Test',
  market: 'vietnam',
  createdAt: '2026-01-01',
  locale: 'vi-VN',
  variables: [
    { name: 'tieu_de', type: 'text', label: 'Tiêu đề', required: true },
    { name: 'price', type: 'number', format: { style: 'currency', currency: 'VND' } },
    { name: 'ends', type: 'date' },
    { name: 'features', type: 'list' },
    { name: 'accent', type: 'colour', bindsTo: 'brand.primaryColor', default: '#112233' },
    { name: 'code', type: 'text' },
  ],
  layouts: { square: { width: 1080, height: 1080, background: '#FFFFFF', layers: [] } },
});

const context = {
  batchId: 'bat_1',
  rowIndex: 4,
  brand: EMPTY_BRAND_PROFILE,
  today: '2026-02-17',
  locale: 'vi-VN',
};

describe('planBindings', () => {
  it('maps columns to variables ignoring case, spacing and Vietnamese diacritics', () => {
    const plan = planBindings(template, ['Tiêu đề', 'PRICE', 'Ends', 'Features ']);
    const sources = Object.fromEntries(plan.variables.map((v) => [v.variable.name, v.source]));
    expect(sources.tieu_de).toEqual({ field: 'Tiêu đề' });
    expect(sources.price).toEqual({ field: 'PRICE' });
    expect(sources.features).toEqual({ field: 'Features ' });
    expect(sources.accent).toEqual({ auto: 'default' });
  });

  it('lets explicit bindings win and rejects unknown variables and fields with paths', () => {
    const plan = planBindings(template, ['Name', 'Other'], {
      tieu_de: { field: 'Other' },
      code: { generated: 'uuid' },
    });
    expect(plan.variables.find((v) => v.variable.name === 'tieu_de')!.source).toEqual({
      field: 'Other',
    });
    try {
      planBindings(template, ['Name'], { nope: { constant: 1 }, tieu_de: { field: 'Missing' } });
      expect.unreachable();
    } catch (error) {
      const paths = (error as { problems: { path: string }[] }).problems.map((p) => p.path);
      expect(paths).toEqual(['bindings.nope', 'bindings.tieu_de.field']);
    }
  });
});

describe('valuesForRow', () => {
  it('converts cells as people type them and leaves empty cells to defaults', () => {
    const plan = planBindings(template, ['tieu_de', 'price', 'ends', 'features', 'code']);
    const values = valuesForRow(
      plan,
      {
        tieu_de: 'Áo dài',
        price: '1.250.000 ₫',
        ends: '17/02/2026',
        features: 'Lụa | Thêu tay\nMay đo',
        code: '',
      },
      context,
    );
    expect(values).toEqual({
      tieu_de: 'Áo dài',
      price: 1250000,
      ends: '2026-02-17',
      features: ['Lụa', 'Thêu tay', 'May đo'],
    });
  });

  it('fills constants, brand values and generated values deterministically', () => {
    const brand = BrandProfile.parse({ colours: { primary: '#C2410C' } });
    const plan = planBindings(template, [], {
      tieu_de: { constant: 'Tết' },
      accent: { profile: 'brand.primaryColor' },
      code: { generated: 'uuid' },
      price: { generated: 'rowNumber' },
      ends: { generated: 'today' },
    });
    const values = valuesForRow(plan, {}, { ...context, brand });
    expect(values).toEqual({
      tieu_de: 'Tết',
      accent: '#C2410C',
      code: deterministicUuid('bat_1:4'),
      price: 5,
      ends: '2026-02-17',
    });
    expect(valuesForRow(plan, {}, { ...context, brand })).toEqual(values);
    expect(deterministicUuid('bat_1:4')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
