import { describe, expect, it } from 'vitest';
import {
  BatchFileNamer,
  bundleEntryNames,
  fileBaseName,
  isWindowsDeviceName,
  MAX_STEM_BYTES,
  safeFileBase,
  UniqueNames,
} from '../../main/batch/file-names.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const graphemes = (text: string) =>
  [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);

/** Names people and hostile spreadsheets put in cells. */
const HOSTILE = [
  'a' + '\u0301'.repeat(20_000),
  ('e' + '\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a'.repeat(2)).repeat(200),
  '👩🏽‍💻'.repeat(300),
  '🇻🇳'.repeat(300),
  'Ệ'.normalize('NFD').repeat(300),
  'invoice\u202egnp.exe',
  '\u200b\u200c\u200d\u2060\ufeff\u00ad',
  '\u3164\u3164',
  ' \u200f. .',
  'CON',
  'nul .tar.gz',
  'x'.repeat(199) + 'Ệ',
  'abc\ud800def',
  '\u0085next\u009fline',
];

describe('file names from a pattern', () => {
  it('fills columns and keeps Vietnamese letters', () => {
    expect(fileBaseName('{sku}-{name}', { sku: 'SKU-1', name: 'Áo dài đỏ' })).toBe(
      'SKU-1-Áo dài đỏ',
    );
  });

  it("reads a row's own cells only, never what every object inherits", () => {
    expect(fileBaseName('{__proto__}-{constructor}-{toString}', {})).toBe('');
    const own = JSON.parse('{"__proto__":"p","constructor":"c","toString":"t"}') as Record<
      string,
      unknown
    >;
    expect(fileBaseName('{__proto__}-{constructor}-{toString}', own)).toBe('p-c-t');
  });

  it.each([
    ['../x', 'x'],
    ['..\\..\\etc\\passwd', 'etc-passwd'],
    ['a:b*c?d"e<f>g|h', 'a-b-c-d-e-f-g-h'],
    ['trailing dots...', 'trailing dots'],
    ['tab\there', 'tab-here'],
    ['   ', ''],
    // Bidi overrides would show `invoice‮gnp.exe` as `invoiceexe.png`.
    ['invoice\u202egnp.exe', 'invoicegnp.exe'],
    ['\u2066isolated\u2069 \u200eLRM\u200f', 'isolated LRM'],
    ['zero\u200bwidth\u2060joined\ufeff', 'zerowidthjoined'],
    ['soft\u00adhyphen', 'softhyphen'],
    ['\u3164', ''],
    ['\u200d\u200c', ''],
    ['lone \ud800 surrogate', 'lone surrogate'],
    ['C1\u0085control', 'C1-control'],
  ])('makes %j safe as %j', (raw, safe) => {
    expect(safeFileBase(raw)).toBe(safe);
  });

  it('keeps joiners inside emoji and words, where they are part of the text', () => {
    expect(safeFileBase('👩‍💻 dev')).toBe('👩‍💻 dev');
    expect(safeFileBase('❤️‍🔥')).toBe('❤‍🔥');
    expect(safeFileBase('می‌خواهم')).toBe('می‌خواهم');
  });

  it.each([
    'CON',
    'con',
    'CON.png',
    'con .txt',
    'Con .',
    'nul .tar.gz',
    'AUX...',
    'prn',
    'COM1',
    'com9.tar',
    'LPT1',
    'lpt0 .x',
    'COM¹',
    'LPT³.log',
    'CONIN$',
    'conout$.txt',
  ])('renames the Windows device name %j', (raw) => {
    const safe = safeFileBase(raw);
    expect(safe.startsWith('_'), safe).toBe(true);
    expect(isWindowsDeviceName(safe)).toBe(false);
    expect(isWindowsDeviceName(`${safe}.png`)).toBe(false);
  });

  it.each(['CONSOLE', 'com10', 'nul-1', 'lpt', 'auxiliary.png', 'my con'])(
    'leaves %j alone, which only looks like a device name',
    (raw) => {
      expect(safeFileBase(raw)).toBe(raw);
    },
  );

  it('caps names in UTF-8 bytes without splitting a grapheme', () => {
    // Ệ is 3 bytes in NFC: 66 of them fit in 200 bytes.
    expect(safeFileBase('Ệ'.normalize('NFD').repeat(300))).toBe('Ệ'.repeat(66));
    // 👨‍👩‍👧‍👦 is one grapheme of 25 bytes: 8 fit exactly.
    expect(safeFileBase('👨‍👩‍👧‍👦'.repeat(50))).toBe('👨‍👩‍👧‍👦'.repeat(8));
    expect(safeFileBase('🇻🇳'.repeat(300))).toBe('🇻🇳'.repeat(25));
    // A 2-byte letter does not fit after 199 bytes: it is left out, not cut in half.
    expect(safeFileBase('x'.repeat(199) + 'é')).toBe('x'.repeat(199));
    // Cutting must not leave a trailing space or dot.
    expect(safeFileBase('a'.repeat(198) + ' .bc')).toBe('a'.repeat(198));
  });

  it('reduces a grapheme made of thousands of combining marks to its letter', () => {
    // q́ has no precomposed form, so NFC leaves every mark in place.
    expect(safeFileBase('q' + '\u0301'.repeat(20_000) + 'b')).toBe('qb');
    // Ordinary stacked marks (Vietnamese, a few diacritics) stay whole.
    const stacked = 'ệ'.normalize('NFD') + '\u0323';
    expect(safeFileBase(stacked)).toBe(stacked.normalize('NFC'));
  });

  it('gives every hostile name a stem within the byte cap, whole graphemes, and is stable', () => {
    for (const raw of HOSTILE) {
      const safe = safeFileBase(raw);
      expect(bytes(safe), raw.slice(0, 20)).toBeLessThanOrEqual(MAX_STEM_BYTES);
      expect(safe).toBe(safe.normalize('NFC'));
      expect(safe).not.toMatch(/[\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
      expect(safeFileBase(safe)).toBe(safe);
      for (const g of graphemes(safe)) expect(bytes(g)).toBeLessThanOrEqual(64);
    }
  });

  it('makes names unique regardless of case, Unicode form and invisible characters', () => {
    const names = new UniqueNames();
    expect(names.take('a', 'png', '0')).toBe('a.png');
    expect(names.take('A', 'png', '1')).toBe('A-2.png');
    expect(names.take('Tết', 'png', '2')).toBe('Tết.png');
    expect(names.take('Tết'.normalize('NFD'), 'png', '3')).toBe(`${'Tết'.normalize('NFD')}-2.png`);
    expect(names.take('', 'png', '4')).toBe('4.png');
    expect(names.take('straße', 'png', '5')).toBe('straße.png');
    expect(names.take('STRASSE', 'png', '6')).toBe('STRASSE-2.png');

    const namer = new BatchFileNamer('{name}', 'png');
    expect(
      ['a', 'a\u200b', '\u202ea', 'A', '\u200b', '\u200b', 'CON', '_con'].map((name, i) =>
        namer.name(i, { name }),
      ),
    ).toEqual([
      'a.png',
      'a-2.png',
      'a-3.png',
      'A-4.png',
      '5.png',
      '6.png',
      '_CON.png',
      '_con-2.png',
    ]);
  });
});

describe('unnamed outputs', () => {
  it('are numbered from 1, as the app and the spreadsheet count rows', () => {
    const namer = new BatchFileNamer(null, 'png');
    expect([0, 1, 199].map((i) => namer.name(i, {}))).toEqual(['1.png', '2.png', '200.png']);
    // A pattern that leaves a row nothing falls back to the same number.
    expect(new BatchFileNamer('{sku}', 'jpg').name(0, { sku: '' })).toBe('1.jpg');
    expect(bundleEntryNames([{ rowIndex: 0, fileName: null }], 'png')).toEqual(['1.png']);
  });
});

describe('bundle entry names', () => {
  it('keeps safe stored names and remakes the ones older versions stored', () => {
    const rows = [
      { rowIndex: 0, fileName: 'a.png' },
      { rowIndex: 1, fileName: `${'a' + '\u0300\u0301'.repeat(20_000)}.png` },
      { rowIndex: 2, fileName: `${'😀'.repeat(100)}.png` },
      { rowIndex: 3, fileName: 'CON.png' },
      { rowIndex: 4, fileName: 'A.png' },
      { rowIndex: 5, fileName: null },
      { rowIndex: 6, fileName: '\u200b.png' },
      { rowIndex: 7, fileName: 'b-2.png' },
      { rowIndex: 8, fileName: `${'x'.repeat(200)}-2.png` },
    ];
    const names = bundleEntryNames(rows, 'png');
    expect(names).toEqual([
      'a.png',
      'à.png',
      `${'😀'.repeat(50)}.png`,
      '_CON.png',
      'A-2.png',
      '6.png',
      '7.png',
      'b-2.png',
      `${'x'.repeat(200)}-2.png`,
    ]);
    for (const name of names) expect(bytes(name)).toBeLessThanOrEqual(255);
  });
});
