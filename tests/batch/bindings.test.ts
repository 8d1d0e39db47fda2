import { describe, expect, it } from 'vitest';
import { EMPTY_BRAND_PROFILE, BrandProfile } from '../../shared/brand-profile.js';
import { Template } from '../../shared/template-format.js';
import { Bindings } from '../../shared/batch-schemas.js';
import { zodProblems } from '../../shared/zod-problems.js';
import {
  deterministicUuid,
  planBindings,
  serialRangeProblems,
  valuesForRow,
} from '../../main/batch/bindings.js';

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
  sourceTotal: 12,
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

describe('serial numbers and the row count', () => {
  const ticket = {
    serial: { start: 1001, step: 5, pad: 6, prefix: 'TIX-', suffix: '/A' },
  };

  it('numbers each row from its position in the source: prefix, zero-padded start + step × n, suffix', () => {
    const plan = planBindings(template, [], { code: ticket, tieu_de: { generated: 'total' } });
    const row = (rowIndex: number) => valuesForRow(plan, {}, { ...context, rowIndex });
    expect(row(0)).toMatchObject({ code: 'TIX-001001/A', tieu_de: '12' });
    expect(row(4)).toMatchObject({ code: 'TIX-001021/A', tieu_de: '12' });
  });

  it('defaults to 1, 2, 3 … unpadded, and gives a number variable the number and the count', () => {
    const plan = planBindings(template, [], {
      code: { serial: {} },
      price: { serial: { start: 10, step: -2 } },
      tieu_de: { generated: 'total' },
    });
    expect(valuesForRow(plan, {}, context)).toMatchObject({ code: '5', price: 2 });
    const counted = planBindings(template, [], { price: { generated: 'total' } });
    expect(valuesForRow(counted, {}, context)).toMatchObject({ price: 12 });
  });

  it('fails a row a count down would number below 0, naming the binding', () => {
    const plan = planBindings(template, [], { code: { serial: { start: 3, step: -1 } } });
    expect(valuesForRow(plan, {}, { ...context, rowIndex: 3 })).toMatchObject({ code: '0' });
    expect(() => valuesForRow(plan, {}, { ...context, rowIndex: 4 })).toThrow(
      expect.objectContaining({
        problems: [
          {
            path: 'bindings.code.serial',
            message: expect.stringMatching(/row 5 would be numbered -1: .* below 0 after row 4/),
          },
        ],
      }),
    );
  });

  it('refuses serials and counts for variables that cannot hold them, and text around a number', () => {
    const paths = (bindings: Bindings) => {
      try {
        planBindings(template, [], bindings);
        return [];
      } catch (error) {
        return (error as { problems: { path: string }[] }).problems.map((p) => p.path);
      }
    };
    expect(paths({ ends: { serial: {} }, features: { generated: 'total' } })).toEqual([
      'bindings.ends',
      'bindings.features',
    ]);
    expect(paths({ price: { serial: { prefix: 'No. ' } } })).toEqual([
      'bindings.price.serial.prefix',
    ]);
    expect(paths({ price: { serial: { pad: 0, prefix: '' } } })).toEqual([]);
  });

  it('refuses unknown keys, fractions, padding past 20 and long prefixes with their paths', () => {
    const problems = (raw: unknown) => {
      const parsed = Bindings.safeParse(raw);
      return parsed.success ? [] : zodProblems(parsed.error, 'bindings').map((p) => p.path);
    };
    expect(problems({ code: { serial: { start: 1, every: 2 } } })).toEqual([
      'bindings.code.serial.every',
    ]);
    expect(problems({ code: { serial: { step: 1.5, pad: 21 } } })).toEqual([
      'bindings.code.serial.step',
      'bindings.code.serial.pad',
    ]);
    expect(problems({ code: { serial: { start: -1, suffix: 'x'.repeat(41) } } })).toEqual([
      'bindings.code.serial.start',
      'bindings.code.serial.suffix',
    ]);
    expect(problems({ code: { serial: { prefix: 'x'.repeat(40) }, extra: true } })).toEqual([
      'bindings.code.extra',
    ]);
  });

  it('finds at once the last row a count down would take below 0', () => {
    const bindings: Bindings = { code: { serial: { start: 10, step: -5 } } };
    expect(serialRangeProblems(bindings, 2)).toEqual([]);
    expect(serialRangeProblems(bindings, 3)).toEqual([
      {
        path: 'bindings.code.serial',
        message: expect.stringContaining('row 4 would be numbered -5'),
      },
    ]);
  });
});
