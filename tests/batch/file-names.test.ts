import { describe, expect, it } from 'vitest';
import { fileBaseName, safeFileBase, UniqueNames } from '../../main/batch/file-names.js';

describe('file names from a pattern', () => {
  it('fills columns and keeps Vietnamese letters', () => {
    expect(fileBaseName('{sku}-{name}', { sku: 'SKU-1', name: 'Áo dài đỏ' })).toBe(
      'SKU-1-Áo dài đỏ',
    );
  });

  it.each([
    ['../x', 'x'],
    ['..\\..\\etc\\passwd', 'etc-passwd'],
    ['CON', '_CON'],
    ['com1.txt', '_com1.txt'],
    ['a:b*c?d"e<f>g|h', 'a-b-c-d-e-f-g-h'],
    ['trailing dots...', 'trailing dots'],
    ['tab\there', 'tab-here'],
    ['   ', ''],
  ])('makes %j safe as %j', (raw, safe) => {
    expect(safeFileBase(raw)).toBe(safe);
  });

  it('caps long names at 120 characters without splitting a grapheme', () => {
    const name = safeFileBase('Ệ'.normalize('NFD').repeat(300));
    expect([...new Intl.Segmenter().segment(name)]).toHaveLength(120);
    expect(name).toBe('Ệ'.repeat(120));
  });

  it('makes names unique regardless of case and Unicode form', () => {
    const names = new UniqueNames();
    expect(names.take('a', 'png', '0')).toBe('a.png');
    expect(names.take('A', 'png', '1')).toBe('A-2.png');
    expect(names.take('Tết', 'png', '2')).toBe('Tết.png');
    expect(names.take('Tết'.normalize('NFD'), 'png', '3')).toBe(`${'Tết'.normalize('NFD')}-2.png`);
    expect(names.take('', 'png', '4')).toBe('4.png');
  });
});
