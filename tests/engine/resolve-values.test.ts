import { describe, expect, it } from 'vitest';
import { BrandProfile, EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { AppError, Errors, type Problem } from '../../shared/errors.js';
import { resolveValues, type BrandFill } from '../../main/engine/resolve-values.js';
import { MAX_TEXT_TOTAL_CHARS, MAX_TEXT_VALUE_CHARS } from '../../main/engine/text-limits.js';
import type { ImageInput } from '../../main/render/render-protocol.js';
import { buildTemplate } from './fixtures/template-builder.js';

const template = buildTemplate({
  variables: [
    { name: 'headline', type: 'text', required: true, maxLength: 5 },
    { name: 'body', type: 'longText' },
    { name: 'accent', type: 'colour', bindsTo: 'brand.primaryColor', default: '#112233' },
    { name: 'price', type: 'number', min: 0, max: 1_000_000_000 },
    { name: 'when', type: 'date' },
    {
      name: 'size',
      type: 'enum',
      options: [
        { value: 's', label: 'S' },
        { value: 'l', label: 'L' },
      ],
    },
    { name: 'perks', type: 'list', maxItems: 3 },
    { name: 'photo', type: 'image' },
    { name: 'font', type: 'text', bindsTo: 'brand.font.heading', default: 'Be Vietnam Pro' },
  ],
});

const resolveImage = (value: string): ImageInput => ({ kind: 'file', path: value });
const resolve = (values: Record<string, unknown>, brand = EMPTY_BRAND_PROFILE) =>
  resolveValues(template, values, { brand, resolveImage });

function problemsOf(values: Record<string, unknown>): Problem[] {
  try {
    resolve(values);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation-failed');
    expect((error as AppError).status).toBe(422);
    return (error as AppError).problems ?? [];
  }
  throw new Error('expected a validation error');
}

const paths = (values: Record<string, unknown>) => problemsOf(values).map((p) => p.path);

describe('resolveValues', () => {
  it('normalises every type of value', () => {
    const values = resolve({
      headline: 'Te\u0302\u0301t',
      body: 'long',
      accent: '#a1b',
      price: ' 1250000 ',
      when: '2026-02-17T10:30:00+07:00',
      size: 'l',
      perks: 'one\r\ntwo\n\nthree',
      photo: '/tmp/x.png',
    });
    expect(values).toEqual({
      headline: 'Tết',
      body: 'long',
      accent: '#AA11BB',
      price: 1250000,
      when: '2026-02-17',
      size: 'l',
      perks: ['one', 'two', 'three'],
      photo: { kind: 'file', path: '/tmp/x.png' },
      font: 'Be Vietnam Pro',
    });
    expect(values.headline).toBe('Tết'.normalize('NFC'));
  });

  it('accepts numbers written as 1250000, -3.5 and 1e3, and 8-digit colours', () => {
    const t = buildTemplate({
      variables: [
        { name: 'n', type: 'number' },
        { name: 'c', type: 'colour' },
      ],
    });
    const run = (n: unknown) =>
      resolveValues(t, { n, c: '#aabbcc80' }, { brand: EMPTY_BRAND_PROFILE, resolveImage });
    expect(run('-3.5').n).toBe(-3.5);
    expect(run('1e3').n).toBe(1000);
    expect(run(42).n).toBe(42);
    expect(run(42).c).toBe('#AABBCC80');
  });

  it('treats maxLength as advice, never as a reason to refuse', () => {
    expect(resolve({ headline: 'much longer than five' }).headline).toBe('much longer than five');
  });

  it('refuses a text value over 10,000 characters, naming it, and a 4 MB one without walking it', () => {
    const atLimit = 'x'.repeat(MAX_TEXT_VALUE_CHARS);
    expect(resolve({ headline: atLimit }).headline).toBe(atLimit);
    // Astral characters are one character each, though two UTF-16 units.
    expect(resolve({ headline: 'x', body: '😀'.repeat(MAX_TEXT_VALUE_CHARS) }).body).toHaveLength(
      2 * MAX_TEXT_VALUE_CHARS,
    );
    expect(problemsOf({ headline: atLimit + 'x' })).toEqual([
      { path: 'values.headline', message: expect.stringMatching(/longer than 10,000 characters/) },
    ]);
    const started = performance.now();
    expect(paths({ headline: 'x', body: 'y'.repeat(4 * 1024 * 1024) })).toEqual(['values.body']);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(paths({ headline: 'x', perks: ['ok', 'z'.repeat(MAX_TEXT_VALUE_CHARS + 1)] })).toEqual([
      'values.perks[1]',
    ]);
  });

  it('refuses text values that together exceed the total a render may draw', () => {
    const share = 'x'.repeat(MAX_TEXT_VALUE_CHARS);
    const problems = problemsOf({ headline: share, body: share, perks: [share, 'y'] });
    expect(problems).toEqual([
      {
        path: 'values',
        message: expect.stringMatching(/add up to 30,0\d\d characters.*at most 30,000/),
      },
    ]);
    expect(MAX_TEXT_TOTAL_CHARS).toBe(30_000);
  });

  it('lists every problem at once, each with its path', () => {
    const problems = problemsOf({
      headline: { text: 'x' },
      accent: 'red',
      price: '12abc',
      when: '2026-02-30',
      size: 'xl',
      perks: ['a', 5, { x: 1 }],
      photo: 7,
      nope: 'x',
    });
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        'values.accent',
        'values.headline',
        'values.nope',
        'values.perks[2]',
        'values.photo',
        'values.price',
        'values.size',
        'values.when',
      ].sort(),
    );
    expect(problems.find((p) => p.path === 'values.size')?.message).toContain('s, l');
  });

  it('requires required values that have no default and no brand value', () => {
    expect(paths({})).toEqual(['values.headline']);
    expect(paths({ headline: '   ' })).toEqual(['values.headline']);
    expect(paths({ headline: null })).toEqual(['values.headline']);
  });

  it('takes a number or true/false for a text variable as JSON writes it, as batch cells do', () => {
    expect(resolve({ headline: 12345 }).headline).toBe('12345');
    expect(resolve({ headline: 1.5, body: false }).body).toBe('false');
    expect(paths({ headline: ['a'] })).toEqual(['values.headline']);
    expect(paths({ headline: Number.NaN })).toEqual(['values.headline']);
  });

  it('never requires a brand-bound variable: brand, then default, then empty, each reported', () => {
    const strict = buildTemplate({
      variables: [
        { name: 'storeName', type: 'text', required: true, bindsTo: 'brand.name' },
        { name: 'logo', type: 'image', required: true, bindsTo: 'brand.logo' },
        { name: 'accent', type: 'colour', bindsTo: 'brand.primaryColor', default: '#112233' },
      ],
    });
    const fill: BrandFill[] = [];
    const empty = resolveValues(
      strict,
      {},
      { brand: EMPTY_BRAND_PROFILE, resolveImage, brandFill: fill },
    );
    expect(empty).toEqual({ storeName: null, logo: null, accent: '#112233' });
    expect(fill).toEqual([
      { variable: 'storeName', role: 'brand.name', source: 'empty' },
      { variable: 'logo', role: 'brand.logo', source: 'empty' },
      { variable: 'accent', role: 'brand.primaryColor', source: 'default' },
    ]);
    const named: typeof fill = [];
    const brand = BrandProfile.parse({ name: 'Hồng Phát' });
    expect(
      resolveValues(strict, { logo: '/tmp/l.png' }, { brand, resolveImage, brandFill: named })
        .storeName,
    ).toBe('Hồng Phát');
    // A value the caller sent is no fill: only omitted brand-bound variables are reported.
    expect(named.map((f) => `${f.variable}=${f.source}`)).toEqual([
      'storeName=brand',
      'accent=default',
    ]);
  });

  it('refuses numbers outside min/max, hex strings and non-finite numbers', () => {
    expect(paths({ headline: 'a', price: -1 })).toEqual(['values.price']);
    expect(paths({ headline: 'a', price: 2e9 })).toEqual(['values.price']);
    expect(paths({ headline: 'a', price: '0x10' })).toEqual(['values.price']);
    expect(paths({ headline: 'a', price: '1,5' })).toEqual(['values.price']);
    expect(paths({ headline: 'a', price: true })).toEqual(['values.price']);
  });

  it('takes a number written as the template’s market writes it, as a spreadsheet cell is read', () => {
    const vietnamese = { ...template, locale: 'vi-VN' };
    const read = (price: unknown) =>
      resolveValues(
        vietnamese,
        { headline: 'a', price },
        { brand: EMPTY_BRAND_PROFILE, resolveImage },
      ).price;
    expect(read('1.250.000 ₫')).toBe(1250000);
    expect(read('1.250.000')).toBe(1250000);
    expect(read('12,5')).toBe(12.5);
    // Machine notation keeps its meaning, and malformed grouping stays refused.
    expect(read('12.5')).toBe(12.5);
    expect(paths({ headline: 'a', price: '1,25,0' })).toEqual(['values.price']);
  });

  it('refuses dates that are not real calendar dates or not ISO', () => {
    expect(paths({ headline: 'a', when: '2026-13-01' })).toEqual(['values.when']);
    expect(paths({ headline: 'a', when: '2025-02-29' })).toEqual(['values.when']);
    expect(paths({ headline: 'a', when: '17/02/2026' })).toEqual(['values.when']);
    expect(resolve({ headline: 'a', when: '2024-02-29' }).when).toBe('2024-02-29');
  });

  it('refuses lists over maxItems instead of truncating them', () => {
    expect(paths({ headline: 'a', perks: ['1', '2', '3', '4'] })).toEqual(['values.perks']);
    expect(paths({ headline: 'a', perks: 5 })).toEqual(['values.perks']);
  });

  it('falls back to the brand value, then the default, then null', () => {
    const brand = BrandProfile.parse({
      colours: { primary: '#abcdef' },
      fonts: { heading: 'Montserrat' },
    });
    const withBrand = resolve({ headline: 'a' }, brand);
    expect(withBrand.accent).toBe('#ABCDEF');
    expect(withBrand.font).toBe('Montserrat');
    const noBrand = resolve({ headline: 'a', accent: '' });
    expect(noBrand.accent).toBe('#112233');
    expect(noBrand.price).toBeNull();
    expect(noBrand.photo).toBeNull();
    expect(resolve({ headline: 'a', accent: '#000' }, brand).accent).toBe('#000000');
  });

  it('passes image values to the resolver with their path and collects its errors', () => {
    const seen: string[] = [];
    const failing = (value: string, path: string): ImageInput => {
      seen.push(path);
      throw Errors.imageInvalid(path, `no file at "${value}".`);
    };
    try {
      resolveValues(
        template,
        { photo: 'x', price: 'bad' },
        { brand: EMPTY_BRAND_PROFILE, resolveImage: failing },
      );
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('validation-failed');
      expect((error as AppError).problems?.map((p) => p.path).sort()).toEqual([
        'values.headline',
        'values.photo',
        'values.price',
      ]);
    }
    expect(seen).toEqual(['values.photo']);
  });

  it('keeps the code of a lone remote-URL refusal', () => {
    const remote = (_: string, path: string): ImageInput => {
      throw new AppError('url-not-allowed', `${path}: remote images are disabled.`, {
        problems: [{ path, message: 'remote URLs are not allowed' }],
      });
    };
    expect(() =>
      resolveValues(
        template,
        { headline: 'a', photo: 'https://x' },
        { brand: EMPTY_BRAND_PROFILE, resolveImage: remote },
      ),
    ).toThrow(expect.objectContaining({ code: 'url-not-allowed', status: 422 }));
  });
});
