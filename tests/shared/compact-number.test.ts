import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../shared/value-text.js';

const compact = { style: 'decimal', notation: 'compact' } as const;
const money = { style: 'currency', notation: 'compact' } as const;

describe('compact number formats', () => {
  it.each([
    [990_000, '990K'],
    [12_500, '12,5K'],
    [1_200_000, '1,2\u00A0triệu'],
    [12_500_000_000, '12,5\u00A0tỷ'],
    [1_234_567_890, '1,2\u00A0tỷ'],
    [3_000_000_000_000, '3\u00A0nghìn tỷ'],
    [950, '950'],
    [-1_500_000, '-1,5\u00A0triệu'],
    // Rounds up into the next unit rather than writing 1.000K.
    [999_960, '1\u00A0triệu'],
  ])('writes %d in vi-VN as shops do: %s', (value, expected) => {
    expect(formatNumber(value, compact, 'vi-VN')).toBe(expected);
  });

  it('differs from Intl’s own Vietnamese compact form, which no shop prints', () => {
    expect(new Intl.NumberFormat('vi-VN', { notation: 'compact' }).format(990_000)).not.toBe(
      '990K',
    );
  });

  it('leaves ₫ out of a compact đồng amount but keeps another currency’s symbol', () => {
    expect(formatNumber(12_500_000_000, money, 'vi-VN')).toBe('12,5\u00A0tỷ');
    expect(formatNumber(1_200_000, { ...money, currency: 'USD' }, 'vi-VN')).toBe(
      '1,2\u00A0triệu\u00A0US$',
    );
  });

  it.each([
    [12_500_000, '12.5M', '$12.5M'],
    [990_000, '990K', '$990K'],
    [1_234_567_890, '1.2B', '$1.2B'],
  ])('writes %d in en-US as %s', (value, decimal, currency) => {
    expect(formatNumber(value, compact, 'en-US')).toBe(decimal);
    expect(formatNumber(value, money, 'en-US')).toBe(currency);
  });

  it('honours fraction digits, prefix and suffix', () => {
    expect(formatNumber(12_345_678, { ...compact, maximumFractionDigits: 2 }, 'vi-VN')).toBe(
      '12,35\u00A0triệu',
    );
    expect(formatNumber(990_000, { ...compact, prefix: 'Chỉ ', suffix: 'đ' }, 'vi-VN')).toBe(
      'Chỉ 990Kđ',
    );
  });
});
