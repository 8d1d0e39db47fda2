import { describe, expect, it } from 'vitest';
import { parseLocaleDate, parseLocaleNumber } from '../../shared/cell-values.js';

describe('parseLocaleNumber', () => {
  it.each([
    ['1.250.000 ₫', 'vi-VN', 1250000],
    ['1.250.000', 'vi-VN', 1250000],
    ['12,5', 'vi-VN', 12.5],
    ['1250000', 'vi-VN', 1250000],
    ['$1,250.50', 'en-US', 1250.5],
    ['-3.5', 'en-US', -3.5],
    ['1e3', 'en-US', 1000],
    ['25%', 'en-US', 25],
  ])('reads %s in %s as %d', (text, locale, expected) => {
    expect(parseLocaleNumber(text, locale)).toBe(expected);
  });

  it('returns null for text that is not a number', () => {
    expect(parseLocaleNumber('twelve', 'en-US')).toBeNull();
    expect(parseLocaleNumber('1.2.3,4,5', 'en-US')).toBeNull();
  });
});

describe('parseLocaleDate', () => {
  it('reads day-first dates outside en-US and month-first in en-US', () => {
    expect(parseLocaleDate('17/02/2026', 'vi-VN')).toBe('2026-02-17');
    expect(parseLocaleDate('2/17/2026', 'en-US')).toBe('2026-02-17');
    expect(parseLocaleDate('2026-02-17T10:00:00Z', 'vi-VN')).toBe('2026-02-17');
    expect(parseLocaleDate('31/31/2026', 'vi-VN')).toBeNull();
    expect(parseLocaleDate('next Tuesday', 'vi-VN')).toBeNull();
  });
});
