import { describe, expect, it } from 'vitest';
import { fitText, nameFloor, type TextStyleSpec } from '../../main/engine/fit-text.js';
import { holdsOnlyNames } from '../../main/engine/format-value.js';
import { fitRichText, Measurer } from '../../main/engine/text/rich-text.js';
import { PLAIN_STYLE } from '../../main/engine/text/text-runs.js';
import { buildTemplate } from './fixtures/template-builder.js';
import { measuringContext, richSpec } from './text/text-fixtures.js';

const ctx = measuringContext();
const plain = (extra: Partial<TextStyleSpec> = {}): TextStyleSpec => ({
  family: 'Be Vietnam Pro',
  weight: 800,
  style: 'normal',
  size: 200,
  minSize: 150,
  lineHeight: 1.05,
  letterSpacing: 0,
  maxLines: 2,
  fit: 'shrink',
  ...extra,
});
const widthAt = (text: string, size: number) =>
  new Measurer(ctx, richSpec({ weight: 800, size, minSize: size }), size).width(text, PLAIN_STYLE);

// A badge's first name: 48 pt (200 px at 300 dpi), at least 36 pt, in a 2.7 in (810 px) box.
const BOX = { width: 810, height: 420 };

describe('long words kept whole', () => {
  it('keeps a first name whole below minSize rather than break it between its letters', () => {
    // Wider than the box even at minSize: "Bartho / lomew" at 48 pt was drawn before.
    expect(widthAt('Bartholomew', 150)).toBeGreaterThan(BOX.width);
    const spec = plain({ wholeWordFloor: nameFloor(150) });
    const fitted = fitText(ctx, 'Bartholomew', spec, BOX.width, BOX.height);
    expect(fitted.lines).toEqual(['Bartholomew']);
    expect(fitted.size).toBeLessThan(150);
    expect(fitted.size).toBeGreaterThanOrEqual(nameFloor(150));
    expect(fitted.truncated).toBe(false);
  });

  it('breaks a name only when even the floor cannot hold it, at the largest size that fits', () => {
    const name = 'Wolfeschlegelstein';
    expect(widthAt(name, nameFloor(150))).toBeGreaterThan(BOX.width);
    const fitted = fitText(
      ctx,
      name,
      plain({ wholeWordFloor: nameFloor(150) }),
      BOX.width,
      BOX.height,
    );
    expect(fitted.lines.join('')).toBe(name);
    expect(fitted.lines.length).toBe(2);
    // Broken at minSize or above, not at the floor kept for whole names.
    expect(fitted.size).toBeGreaterThanOrEqual(150);
  });

  it('draws other format 1 text as it always did: a long word breaks at the preferred size', () => {
    const fitted = fitText(ctx, 'Bartholomew', plain(), BOX.width, BOX.height);
    expect(fitted.size).toBe(200);
    expect(fitted.lines.length).toBe(2);
  });

  it('shrinks format 2 text within its sizes to keep a word whole, never below minSize unless names', () => {
    const spec = richSpec({ weight: 800, size: 200, minSize: 90, maxLines: 2 });
    const fit = (s: typeof spec) =>
      fitRichText(ctx, [{ text: 'Bartholomew', style: PLAIN_STYLE }], s, BOX.width, BOX.height);
    const whole = fit(spec);
    expect(whole.lines).toEqual(['Bartholomew']);
    expect(whole.size).toBeGreaterThanOrEqual(90);
    expect(whole.size).toBeLessThan(150);
    // Where minSize does not allow it, the word breaks, unless the layer holds only names.
    const strict = { ...spec, minSize: 150 };
    expect(fit(strict).lines.length).toBe(2);
    expect(fit({ ...strict, wholeWordFloor: nameFloor(150) }).lines).toEqual(['Bartholomew']);
  });
});

describe('layers of names', () => {
  const template = buildTemplate({
    variables: [
      { name: 'firstName', type: 'text', critical: 'name' },
      { name: 'lastName', type: 'text', critical: 'name' },
      { name: 'phone', type: 'text', critical: 'phone' },
      { name: 'headline', type: 'text' },
    ],
  });

  it('are layers of critical name placeholders and nothing else', () => {
    expect(holdsOnlyNames('{{firstName}}', template)).toBe(true);
    expect(holdsOnlyNames(' {{firstName}} {{lastName}} ', template)).toBe(true);
    expect(holdsOnlyNames('Hi {{firstName}}', template)).toBe(false);
    expect(holdsOnlyNames('{{firstName}} {{phone}}', template)).toBe(false);
    expect(holdsOnlyNames('{{headline}}', template)).toBe(false);
    expect(holdsOnlyNames('Anh Khoa', template)).toBe(false);
  });
});
