import { describe, expect, it } from 'vitest';
import {
  colourBounds,
  jobFor,
  layoutTemplate,
  renderPixels,
  renderReport,
} from './layout-fixtures.js';

const RED: [number, number, number] = [255, 0, 0];

function column() {
  return layoutTemplate({
    textVariables: ['title'],
    layers: [
      {
        kind: 'stack',
        id: 'column',
        x: 100,
        y: 100,
        width: 880,
        height: 880,
        gap: 20,
        padding: 40,
        layers: [
          {
            kind: 'text',
            id: 'title',
            x: 0,
            y: 0,
            width: 800,
            height: 500,
            text: '{{title}}',
            font: { family: 'Be Vietnam Pro', weight: 700 },
            size: 60,
            lineHeight: 1.25,
            colour: '#000000',
          },
          {
            kind: 'shape',
            id: 'after',
            x: 0,
            y: 0,
            width: 200,
            height: 100,
            shape: 'rectangle',
            fill: '#FF0000',
          },
        ],
      },
    ],
  });
}

describe('the drawn boxes of a page', () => {
  it('place a stack’s children where the stack laid them out, as drawn', async () => {
    const job = jobFor(column(), { title: 'Sale' });
    const report = await renderReport({ ...job, reportBoxes: true });
    const boxes = report.boxes ?? [];
    expect(boxes.map((b) => b.id)).toEqual(['title', 'after']);
    const [title, after] = boxes;
    // The text hugs its one fitted line, inside the padding; the rectangle follows after the gap.
    expect(title).toMatchObject({ x: 140, y: 140, width: 800 });
    expect(title!.height).toBeGreaterThan(60);
    expect(title!.height).toBeLessThan(120);
    expect(after!.y).toBeCloseTo(title!.y + title!.height + 20, 1);
    const red = colourBounds(await renderPixels(job), RED)!;
    expect(red.left).toBe(Math.round(after!.x));
    expect(Math.abs(red.top - after!.y)).toBeLessThanOrEqual(1);
  });

  it('move with a longer text, so an outline drawn from them follows the picture', async () => {
    const short =
      (await renderReport({ ...jobFor(column(), { title: 'Sale' }), reportBoxes: true })).boxes ??
      [];
    const long =
      (
        await renderReport({
          ...jobFor(column(), { title: 'A title long enough to need three lines of text here' }),
          reportBoxes: true,
        })
      ).boxes ?? [];
    const y = (boxes: typeof short) => boxes.find((b) => b.id === 'after')!.y;
    expect(y(long)).toBeGreaterThan(y(short) + 100);
  });

  it('are left out of a report that did not ask for them, as a batch row’s', async () => {
    const report = await renderReport(jobFor(column(), { title: 'Sale' }));
    expect(report.boxes).toBeUndefined();
  });
});
