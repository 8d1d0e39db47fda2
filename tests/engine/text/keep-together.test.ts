import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from '../../../main/engine/format-value.js';
import { transformCase } from '../../../main/engine/text-case.js';
import { KEEP_SPACE, keepTogether } from '../../../main/engine/text/keep-together.js';
import { fitRichText, Measurer } from '../../../main/engine/text/rich-text.js';
import { PLAIN_STYLE } from '../../../main/engine/text/text-runs.js';
import { Template } from '../../../shared/template-format.js';
import { measuringContext, richSpec } from './text-fixtures.js';

const ctx = measuringContext();
const spec = richSpec({ size: 48, minSize: 48 });
const widthOf = (text: string) => new Measurer(ctx, spec, 48).width(text, PLAIN_STYLE);
const linesOf = (text: string, width: number) =>
  fitRichText(ctx, [{ text, style: PLAIN_STYLE }], spec, width, 1000);

const COUPLE = 'Trần Minh Khôi & Nguyễn Thị Phương Thảo';

describe('critical values kept together', () => {
  it('breaks a couple before the "&", never inside the second name', () => {
    // Wide enough for "Trần Minh Khôi & Nguyễn", not for the whole line.
    const width = widthOf('Trần Minh Khôi & Nguyễn Thị') + 4;
    expect(linesOf(COUPLE, width).lines).toEqual(['Trần Minh Khôi & Nguyễn', 'Thị Phương Thảo']);
    expect(linesOf(keepTogether(COUPLE, 'name'), width).lines).toEqual([
      'Trần Minh Khôi',
      '& Nguyễn Thị Phương Thảo',
    ]);
  });

  it('moves a phone number to a line of its own rather than split it', () => {
    const text = `Hotline ${keepTogether('+84 28 3822 9999', 'phone')}`;
    const width = widthOf('Hotline +84 28 3822') + 4;
    const fitted = linesOf(text, width);
    expect(fitted.lines).toEqual(['Hotline', '+84 28 3822 9999']);
    expect(fitted.truncated).toBe(false);
  });

  it('ends a line with the middle dot between a name and a phone, never starts one with it', () => {
    const text = `${keepTogether('Anh Khoa', 'name')} · ${keepTogether('0903 868 123', 'phone')}`;
    const fitted = linesOf(text, widthOf('Anh Khoa · 0903 868') + 4);
    expect(fitted.lines).toEqual(['Anh Khoa ·', '0903 868 123']);
  });

  it('shrinks a name to keep it on one line before breaking it, when minSize allows', () => {
    const name = 'Nguyễn Thị Phương Thảo';
    const width = widthOf(name) * 0.85;
    const shrinkable = richSpec({ size: 48, minSize: 24 });
    const fit = (text: string) =>
      fitRichText(ctx, [{ text, style: PLAIN_STYLE }], shrinkable, width, 1000);
    // Unmarked, the name wraps at full size; marked, it shrinks and stays whole.
    expect(fit(name)).toMatchObject({ size: 48, lines: ['Nguyễn Thị', 'Phương Thảo'] });
    const kept = fit(keepTogether(name, 'name'));
    expect(kept.lines).toEqual([name]);
    expect(kept.size).toBeLessThan(48);
    expect(kept.size).toBeGreaterThanOrEqual(40);
  });

  it('breaks a name wider than the line between its words, not its letters', () => {
    const name = keepTogether('Nguyễn Thị Phương Thảo Quỳnh Anh', 'name');
    const fitted = linesOf(name, widthOf('Nguyễn Thị Phương') + 4);
    expect(fitted.truncated).toBe(false);
    expect(fitted.lines.join(' ')).toBe('Nguyễn Thị Phương Thảo Quỳnh Anh');
    expect(fitted.lines.length).toBe(2);
  });

  it('capitalises every word of a kept name', () => {
    const name = keepTogether('nguyễn thị thảo', 'name');
    expect(transformCase(name, 'capitalize', 'vi-VN')).toBe(
      keepTogether('Nguyễn Thị Thảo', 'name'),
    );
  });

  it('marks only the values of critical variables, and only when asked', () => {
    const template = Template.parse({
      schemaVersion: 2,
      id: 'tmpl_keep_test',
      name: 'Keep test',
      category: 'Test',
      subCategory: 'Test',
      market: 'vietnam',
      createdAt: '2026-01-01',
      variables: [
        { name: 'agent', type: 'text', critical: 'name' },
        { name: 'note', type: 'text' },
      ],
      layouts: { square: { width: 1080, height: 1080, background: '#FFFFFF', layers: [] } },
    });
    const values = { agent: 'Lê Văn Thành', note: 'gọi sau 9 giờ' };
    expect(fillPlaceholders('{{agent}} · {{note}}', template, values, true)).toBe(
      `Lê${KEEP_SPACE}Văn${KEEP_SPACE}Thành · gọi sau 9 giờ`,
    );
    expect(fillPlaceholders('{{agent}}', template, values)).toBe('Lê Văn Thành');
    // Pasted prose in a name field wraps like any text: no line could hold it whole.
    const prose = 'Lê Văn Thành '.repeat(8).trim();
    expect(fillPlaceholders('{{agent}}', template, { agent: prose }, true)).toBe(prose);
  });
});
