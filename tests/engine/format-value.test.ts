import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from '../../main/engine/format-value.js';
import { formatDate, formatNumber } from '../../shared/value-text.js';
import { buildTemplate } from './fixtures/template-builder.js';

describe('number formatting', () => {
  it('shows VND prices the Vietnamese way, with a no-break space before ₫', () => {
    expect(formatNumber(1250000, { style: 'currency', currency: 'VND' }, 'vi-VN')).toBe(
      '1.250.000\u00A0₫',
    );
  });

  it('picks the locale currency when the format names none', () => {
    expect(formatNumber(1250000, { style: 'currency' }, 'vi-VN')).toBe('1.250.000\u00A0₫');
    expect(formatNumber(19.5, { style: 'currency' }, 'en-US')).toBe('$19.50');
  });

  it('adds the prefix and suffix around the number', () => {
    expect(formatNumber(25, { style: 'decimal', prefix: '-', suffix: '%' }, 'en-US')).toBe('-25%');
  });

  it('follows Intl for percent: 0.25 is 25 %', () => {
    expect(formatNumber(0.25, { style: 'percent' }, 'en-US')).toBe('25%');
  });
});

describe('date formatting', () => {
  it('uses dd/MM/yyyy for vi-VN by default', () => {
    expect(formatDate('2026-02-17', undefined, 'vi-VN')).toBe('17/02/2026');
  });

  it('uses MMM d, yyyy for en-US and ISO for other locales by default', () => {
    expect(formatDate('2026-02-17', undefined, 'en-US')).toBe('Feb 17, 2026');
    expect(formatDate('2026-02-17', undefined, 'de-DE')).toBe('2026-02-17');
  });

  it('understands every pattern token, with names from the locale', () => {
    expect(formatDate('2026-02-07', 'EEEE d MMMM yy (EEE, MMM, M, dd)', 'en-US')).toBe(
      'Saturday 7 February 26 (Sat, Feb, 2, 07)',
    );
    expect(formatDate('2026-02-17', 'EEEE', 'vi-VN')).toBe('Thứ Ba');
  });

  it('keeps quoted text literally', () => {
    expect(formatDate('2026-02-17', "'Ngày' dd", 'vi-VN')).toBe('Ngày 17');
  });

  it('does not depend on the time zone of the machine', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(formatDate('2026-01-01', 'yyyy-MM-dd EEE', 'en-US')).toBe('2026-01-01 Thu');
    } finally {
      process.env.TZ = previous;
    }
  });
});

describe('placeholders', () => {
  const template = buildTemplate({
    locale: 'vi-VN',
    variables: [
      { name: 'price', type: 'number', format: { style: 'currency' } },
      { name: 'when', type: 'date' },
      { name: 'usDate', type: 'date', locale: 'en-US' },
      { name: 'perks', type: 'list' },
      { name: 'name', type: 'text' },
      { name: 'size', type: 'enum', options: [{ value: 'l', label: 'Large' }] },
    ],
  });

  it('replaces each placeholder with its formatted value; the variable locale wins', () => {
    const text = fillPlaceholders(
      '{{name}}: {{ price }} — {{when}} / {{usDate}} — {{perks}} — {{size}}',
      template,
      {
        name: 'Áo dài',
        price: 1250000,
        when: '2026-02-17',
        usDate: '2026-02-17',
        perks: ['a', 'b'],
        size: 'l',
      },
    );
    expect(text).toBe('Áo dài: 1.250.000\u00A0₫ — 17/02/2026 / Feb 17, 2026 — a, b — Large');
  });

  it('shows empty values as nothing and leaves unknown names as written', () => {
    expect(fillPlaceholders('[{{name}}] {{nope}}', template, { name: null })).toBe('[] {{nope}}');
  });
});
