import { describe, expect, it } from 'vitest';
import {
  colourBounds,
  darkRows,
  jobFor,
  layoutTemplate,
  renderPixels,
  renderReport,
} from './layout-fixtures.js';

const RED: [number, number, number] = [255, 0, 0];

/** A column: a list of up to five items, then a red bar. */
function column(justify: 'start' | 'end' = 'start') {
  return layoutTemplate({
    imageVariables: [{ name: 'points', type: 'list', maxItems: 5 }],
    layers: [
      {
        kind: 'stack',
        id: 'column',
        x: 100,
        y: 100,
        width: 880,
        height: 880,
        gap: 20,
        justify,
        layers: [
          {
            kind: 'list',
            id: 'points',
            x: 0,
            y: 0,
            width: 880,
            height: 600,
            items: { var: 'points' },
            font: { family: 'Be Vietnam Pro', weight: 400 },
            size: 40,
            minSize: 20,
            lineHeight: 1.3,
            colour: '#000000',
            bullet: '•',
            gap: 10,
          },
          {
            kind: 'shape',
            id: 'after',
            x: 0,
            y: 0,
            width: 200,
            height: 60,
            shape: 'rectangle',
            fill: '#FF0000',
          },
        ],
      },
    ],
  });
}

const barTop = async (points: string[], justify?: 'start' | 'end') =>
  colourBounds(await renderPixels(jobFor(column(justify), { points })), RED)!.top;

describe('a list in a stack', () => {
  it('takes the room its items need, so what follows a short list moves up', async () => {
    const one = await barTop(['Fresh bread']);
    const three = await barTop(['Fresh bread', 'Hot coffee', 'Free wifi']);
    // One line of 40 px at 1.3 is 52 px; three are 3 × 52 + 2 gaps of 10 = 176 px.
    expect(one).toBeGreaterThanOrEqual(100 + 52 + 20 - 2);
    expect(one).toBeLessThanOrEqual(100 + 52 + 20 + 2);
    expect(three - one).toBeGreaterThanOrEqual(176 - 52 - 2);
    expect(three - one).toBeLessThanOrEqual(176 - 52 + 2);
  });

  it('sits on what follows in a stack anchored at its end, not at the top of its box', async () => {
    const pixels = await renderPixels(jobFor(column('end'), { points: ['Fresh bread'] }));
    const bar = colourBounds(pixels, RED)!.top;
    const text = darkRows(pixels, { x: 100, y: 100, width: 880, height: bar - 100 })!;
    // The one line ends within the gap (and the line's leading) above the bar.
    expect(bar - text.bottom).toBeGreaterThan(20);
    expect(bar - text.bottom).toBeLessThan(20 + 30);
  });

  it('still shrinks to its minimum size and drops items when the stack is full', async () => {
    const many = Array.from({ length: 5 }, (_, i) => `Point ${i + 1} ${'long words '.repeat(12)}`);
    const report = await renderReport(jobFor(column(), { points: many }));
    const points = report.layers.find((layer) => layer.id === 'points')!;
    expect(points.fittedSize).toBeLessThan(40);
    // The bar is still inside the stack.
    expect(await barTop(many)).toBeLessThanOrEqual(100 + 880 - 60);
  });

  it('takes no room and no gap when it has no items', async () => {
    expect(await barTop([])).toBe(100);
  });
});
