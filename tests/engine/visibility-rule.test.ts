import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import { ruleHolds } from '../../main/engine/visibility-rule.js';
import type { VisibilityRule } from '../../shared/template-format.js';
import { buildJob, buildTemplate } from './fixtures/template-builder.js';

const holds = (
  rule: VisibilityRule,
  values: Record<string, string | number | null>,
  locale = 'en-US',
) => ruleHolds(rule, values, locale);

describe('visibility rules', () => {
  it("keeps today's forms: notEmpty, equals and notEquals on one variable", () => {
    expect(holds({ var: 'badge', notEmpty: true }, { badge: 'Mới' })).toBe(true);
    expect(holds({ var: 'badge', notEmpty: true }, { badge: '' })).toBe(false);
    expect(holds({ var: 'badge', notEmpty: false }, {})).toBe(true);
    expect(holds({ var: 'tier', equals: 'gold' }, { tier: 'gold' })).toBe(true);
    expect(holds({ var: 'tier', notEquals: 'gold' }, { tier: 'gold' })).toBe(false);
    expect(holds({ var: 'count', equals: 3 }, { count: 3 })).toBe(true);
  });

  it('compares numbers with gt, lt and between (inclusive), reading text as the locale writes it', () => {
    const pricey: VisibilityRule = { var: 'price', gt: 1_000_000 };
    expect(holds(pricey, { price: 1_250_000 }, 'vi-VN')).toBe(true);
    expect(holds(pricey, { price: '1.250.000' }, 'vi-VN')).toBe(true);
    expect(holds(pricey, { price: '1.250.000 ₫' }, 'vi-VN')).toBe(true);
    expect(holds(pricey, { price: '999.000' }, 'vi-VN')).toBe(false);
    expect(holds(pricey, { price: '1,250,000' }, 'en-US')).toBe(true);
    expect(holds({ var: 'stock', lt: 5 }, { stock: 4 })).toBe(true);
    expect(holds({ var: 'stock', lt: 5 }, { stock: 5 })).toBe(false);
    expect(holds({ var: 'age', between: [18, 25] }, { age: 18 })).toBe(true);
    expect(holds({ var: 'age', between: [18, 25] }, { age: 25 })).toBe(true);
    expect(holds({ var: 'age', between: [18, 25] }, { age: 25.5 })).toBe(false);
  });

  it('fails a numeric comparison on a value that is no number, or none', () => {
    expect(holds({ var: 'price', gt: 0 }, { price: 'liên hệ' }, 'vi-VN')).toBe(false);
    expect(holds({ var: 'price', lt: 10 }, {})).toBe(false);
    expect(holds({ var: 'price', between: [0, 10] }, { price: null })).toBe(false);
  });

  it('matches a value in a list, as text', () => {
    const rule: VisibilityRule = { var: 'tier', in: ['gold', 'platinum', 7] };
    expect(holds(rule, { tier: 'platinum' })).toBe(true);
    expect(holds(rule, { tier: 7 })).toBe(true);
    expect(holds(rule, { tier: 'silver' })).toBe(false);
    expect(holds(rule, {})).toBe(false);
  });

  it('needs every rule of all and one of any, nested', () => {
    const rule: VisibilityRule = {
      all: [
        { var: 'tier', in: ['gold', 'vip'] },
        {
          any: [
            { var: 'price', gt: 500 },
            { var: 'promo', notEmpty: true },
          ],
        },
      ],
    };
    expect(holds(rule, { tier: 'gold', price: 600 })).toBe(true);
    expect(holds(rule, { tier: 'gold', price: 100, promo: 'TET' })).toBe(true);
    expect(holds(rule, { tier: 'gold', price: 100 })).toBe(false);
    expect(holds(rule, { tier: 'basic', price: 600 })).toBe(false);
  });

  it('hides a layer in the engine when its rule fails, and draws it when it holds', async () => {
    const template = buildTemplate({
      locale: 'vi-VN',
      variables: [
        { name: 'price', type: 'text' },
        { name: 'tier', type: 'text' },
      ],
      layers: [
        {
          kind: 'text',
          id: 'deal',
          text: 'Ưu đãi {{price}}',
          x: 100,
          y: 100,
          width: 800,
          height: 100,
          size: 48,
          font: { family: 'Be Vietnam Pro' },
          colour: '#0F172A',
          visibleWhen: {
            any: [
              { var: 'price', between: [1_000_000, 2_000_000] },
              { var: 'tier', in: ['vip'] },
            ],
          },
        },
      ],
    });
    const drawn = async (values: Record<string, string>) => {
      const result = await renderJob(buildJob(template, values, { measureOnly: true }));
      if (!result.ok) throw new Error(result.message);
      return result.report.layers.map((layer) => layer.id);
    };
    expect(await drawn({ price: '1.250.000', tier: 'basic' })).toEqual(['deal']);
    expect(await drawn({ price: '3.000.000', tier: 'vip' })).toEqual(['deal']);
    expect(await drawn({ price: '3.000.000', tier: 'basic' })).toEqual([]);
  });
});
