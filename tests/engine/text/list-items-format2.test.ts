import { describe, expect, it } from 'vitest';
import { applyFont, measure, wrap } from '../../../main/engine/fit-text.js';
import { renderJob } from '../../../main/engine/render-job.js';
import { wrapFormat2 } from '../../../main/engine/text/rich-text.js';
import { buildJob } from '../fixtures/template-builder.js';
import { format2Template, measuringContext, richSpec } from './text-fixtures.js';

describe('list items in format 2', () => {
  it('keep compounds and numbers with their units on one line', () => {
    const ctx = measuringContext();
    const spec = richSpec({ wrap: 'greedy', weight: 400 });
    applyFont(ctx, spec, 48);
    const text = 'Tặng bảo hiểm xe hơi và thẻ nhớ 128 GB';
    const width = measure(ctx, 'Tặng bảo hiểm xe', 0) + 2;
    expect(wrap(ctx, text, width, 0)[0]).toBe('Tặng bảo hiểm xe');
    const lines = wrapFormat2(ctx, text, spec, 48, width);
    expect(lines[0]).toBe('Tặng bảo hiểm');
    expect(lines.some((line) => line.includes('xe hơi'))).toBe(true);
    expect(lines.some((line) => line.includes('128 GB'))).toBe(true);
    expect(lines.every((line) => measure(ctx, line, 0) <= width)).toBe(true);
  });

  it('still fit their box', async () => {
    const template = format2Template([
      {
        kind: 'list',
        id: 'perks',
        items: { var: 'perks' },
        x: 100,
        y: 100,
        width: 500,
        height: 300,
        size: 44,
        font: { family: 'Be Vietnam Pro' },
        colour: '#000000',
      },
    ]);
    const withList = {
      ...template,
      variables: [{ name: 'perks', type: 'list' as const, required: false }],
    };
    const result = await renderJob(
      buildJob(withList, {
        perks: ['Miễn phí giao hàng tận nơi', 'Tặng bảo hiểm xe hơi 12 tháng', 'Giảm 50 % hôm nay'],
      }),
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.report.layers[0]).toMatchObject({ overflow: false, truncated: false });
  });
});
