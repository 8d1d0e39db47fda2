import { describe, expect, it } from 'vitest';
import { applyFont, measure, wrap } from '../../../main/engine/fit-text.js';
import { renderJob } from '../../../main/engine/render-job.js';
import { fitRichText } from '../../../main/engine/text/rich-text.js';
import { PLAIN_STYLE } from '../../../main/engine/text/text-runs.js';
import { countNot, decodePixels } from '../fixtures/pixels.js';
import { buildJob } from '../fixtures/template-builder.js';
import { format2Template, measuringContext, richSpec } from './text-fixtures.js';

const ctx = measuringContext();
const spec = richSpec();
const plain = (text: string) => [{ text, style: PLAIN_STYLE }];
/** Width of `text` at the spec's font, measured on the real canvas. */
const widthOf = (text: string) => {
  applyFont(ctx, spec, spec.size);
  return measure(ctx, text, 0);
};
const greedy = (text: string, width: number) => {
  applyFont(ctx, spec, spec.size);
  return wrap(ctx, text, width, 0);
};
const balanced = (text: string, width: number, extra = {}) =>
  fitRichText(ctx, plain(text), richSpec(extra), width, 1000).lines;

describe('balanced line breaks', () => {
  it('keeps a Vietnamese compound word on one line where greedy breaking splits it', () => {
    const text = 'Khuyến mãi mùa trăng tròn';
    const width = widthOf('Khuyến mãi mùa trăng') + 2;
    // The format 1 wrap splits "trăng / tròn": the case this rule exists for.
    expect(greedy(text, width)).toEqual(['Khuyến mãi mùa trăng', 'tròn']);
    const lines = balanced(text, width);
    expect(lines).toHaveLength(2);
    expect(lines.some((line) => line.endsWith('trăng'))).toBe(false);
    expect(lines.join(' ')).toBe(text);
  });

  it.each([
    ['Ưu đãi lớn cho xe hơi', 'Ưu đãi lớn cho xe'],
    ['Năm mới Thịnh Vượng', 'Năm mới Thịnh'],
    ['Phố phường rộn ràng', 'Phố phường rộn'],
    ['Sắm Tết rộn ràng, quà sang đủ đầy', 'Sắm Tết rộn ràng, quà'],
    ['Quét mã để chuyển khoản nhanh', 'Quét mã để chuyển'],
  ])('keeps the compound together in "%s"', (text, greedyFirst) => {
    const width = widthOf(greedyFirst) + 2;
    expect(greedy(text, width)[0]).toBe(greedyFirst);
    expect(balanced(text, width).some((line) => line.endsWith(greedyFirst))).toBe(false);
  });

  it.each([
    ['Cảm ơn sự tin tưởng của quý khách', 'Cảm ơn sự tin'],
    ['Ưu đãi khách hàng thân thiết mỗi tháng', 'Ưu đãi khách hàng thân'],
    ['Nhà phố hẻm xe hơi, sổ hồng chính chủ', 'Nhà phố hẻm xe hơi, sổ'],
  ])('keeps the compound together in "%s" when filling each line too', (text, greedyFirst) => {
    const width = widthOf(greedyFirst) + 2;
    expect(greedy(text, width)[0]).toBe(greedyFirst);
    expect(balanced(text, width, { wrap: 'greedy' })[0]).not.toBe(greedyFirst);
  });

  it('leaves no single word alone on the last line when another break avoids it', () => {
    const text = 'Summer sale on every single item';
    const width = widthOf('Summer sale on every single') + 2;
    expect(greedy(text, width)).toEqual(['Summer sale on every single', 'item']);
    const lines = balanced(text, width);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split(' ').length).toBeGreaterThan(1);
    // Balanced: the two lines differ less than greedy's.
    const [a, b] = lines.map(widthOf) as [number, number];
    expect(Math.abs(a - b)).toBeLessThan(widthOf('Summer sale on every single') - widthOf('item'));
  });

  it.each([
    ['Bộ nhớ trong 128 GB', 'Bộ nhớ trong 128', '128 GB'],
    ['Giảm ngay 50 % hôm nay', 'Giảm ngay 50', '50 %'],
    ['Chỉ còn 1.250.000 ₫', 'Chỉ còn 1.250.000', '1.250.000 ₫'],
  ])('keeps a number with its unit in "%s"', (text, greedyFirst, kept) => {
    const width = widthOf(greedyFirst) + 2;
    expect(greedy(text, width)[0]).toBe(greedyFirst);
    expect(balanced(text, width).some((line) => line.includes(kept))).toBe(true);
  });

  it('never breaks at a no-break space', () => {
    for (const space of ['\u00A0', '\u202F']) {
      const text = `Mua ngay giá${space}tốt nhất`;
      const width = widthOf('Mua ngay giá') + 2;
      const lines = balanced(text, width);
      expect(lines.some((line) => line.includes(`giá${space}tốt`))).toBe(true);
    }
  });

  it('prefers a break after punctuation when it costs little', () => {
    const text = 'Sale ends Sunday, shop the new collection';
    const width = widthOf('Sale ends Sunday, shop the') + 2;
    expect(greedy(text, width)[0]).toBe('Sale ends Sunday, shop the');
    expect(balanced(text, width)[0]).toBe('Sale ends Sunday,');
  });

  it('uses at most one line more than greedy breaking (kept words), every line within the width', () => {
    const text = 'Đêm hội trăng tròn rộn ràng xe hơi Thịnh Vượng cho cả nhà vui vẻ';
    for (const width of [300, 420, 560, 800]) {
      expect(balanced(text, width).length).toBeLessThanOrEqual(greedy(text, width).length + 1);
      expect(balanced(text, width).every((line) => widthOf(line) <= width + 0.01)).toBe(true);
    }
  });

  it('wrap: "greedy" fills each line in turn', () => {
    const text = 'Summer sale on every single item';
    const width = widthOf('Summer sale on every single') + 2;
    expect(balanced(text, width, { wrap: 'greedy' })).toEqual([
      'Summer sale on every single',
      'item',
    ]);
  });

  it('fits and shrinks balanced text inside its box, never drawing outside it', async () => {
    const box = { x: 200, y: 200, width: 420, height: 230 };
    const template = format2Template(
      [
        {
          kind: 'text',
          id: 'title',
          text: '{{title}}',
          ...box,
          size: 90,
          minSize: 20,
          maxLines: 4,
          font: { family: 'Be Vietnam Pro', weight: 800 },
          colour: '#000000',
          transform: 'uppercase',
        },
      ],
      ['title'],
    );
    const words = 'Thịnh Vượng trăng tròn xe hơi rộn ràng 128 GB 1.250.000 ₫ Ưu đãi Ế Ự'.split(' ');
    for (const count of [2, 5, 9, 14, 30, 80]) {
      const title = Array.from({ length: count }, (_, i) => words[i % words.length]).join(' ');
      const result = await renderJob(buildJob(template, { title }));
      if (!result.ok) throw new Error(result.message);
      expect(result.report.layers[0]!.overflow).toBe(false);
      const pixels = await decodePixels(result.bytes);
      const white: [number, number, number] = [255, 255, 255];
      const outside =
        countNot(pixels, white, { x: 0, y: 0, width: 1080, height: box.y }) +
        countNot(pixels, white, {
          x: 0,
          y: box.y + box.height,
          width: 1080,
          height: 1080 - box.y - box.height,
        }) +
        countNot(pixels, white, { x: 0, y: box.y, width: box.x, height: box.height }) +
        countNot(pixels, white, {
          x: box.x + box.width,
          y: box.y,
          width: 1080 - box.x - box.width,
          height: box.height,
        });
      expect(outside).toBe(0);
      // Some ink is drawn: the text is there.
      expect(countNot(pixels, white, box)).toBeGreaterThan(100);
    }
  });
});
