import { describe, expect, it } from 'vitest';
import { templateReferenceProblems } from '../../../main/workspace/template-references.js';
import {
  colourBounds,
  darkRows,
  jobFor,
  layoutTemplate,
  renderPixels,
  renderReport,
} from './layout-fixtures.js';

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

const title = (extra: Record<string, unknown> = {}) => ({
  kind: 'text',
  id: 'title',
  x: 0,
  y: 0,
  width: 800,
  height: 500,
  text: '{{title}}',
  font: { family: 'Be Vietnam Pro', weight: 700 },
  size: 60,
  minSize: 20,
  lineHeight: 1.25,
  colour: '#000000',
  ...extra,
});
const box = (id: string, colour: string, width = 200, height = 100) => ({
  kind: 'shape',
  id,
  x: 0,
  y: 0,
  width,
  height,
  shape: 'rectangle',
  fill: colour,
});

/** A template whose one layer is a horizontal stack with `stack`'s place, size and children. */
function rowTemplate(stack: Record<string, unknown>) {
  return layoutTemplate({
    textVariables: ['title'],
    layers: [{ kind: 'stack', id: 'row', direction: 'horizontal', ...stack }],
  });
}

function columnTemplate(stack: Record<string, unknown> = {}) {
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
        layers: [title(), box('after', '#FF0000')],
        ...stack,
      },
    ],
  });
}

const SHORT = 'Sale';
const LONG = 'A title long enough to need three lines of text here';

describe('stack layers', () => {
  it('put a child right after a text child, so a longer text pushes it down by its extra lines', async () => {
    const template = columnTemplate();
    const short = await renderPixels(jobFor(template, { title: SHORT }));
    const long = await renderPixels(jobFor(template, { title: LONG }));
    const shortRed = colourBounds(short, RED)!;
    const longRed = colourBounds(long, RED)!;
    // One line of 60 px at 1.25 is 75 px; the rectangle follows it and the 20 px gap.
    const text = darkRows(short, { x: 140, y: 140, width: 800, height: shortRed.top - 140 })!;
    expect(text.top).toBeGreaterThanOrEqual(140);
    expect(shortRed.top).toBeGreaterThanOrEqual(140 + 75 + 20 - 2);
    expect(shortRed.top).toBeLessThanOrEqual(140 + 75 + 20 + 12);
    expect(shortRed.left).toBe(140);
    expect(shortRed.bottom - shortRed.top + 1).toBe(100);
    const report = await renderReport(jobFor(template, { title: LONG }));
    const lines = report.layers.find((l) => l.id === 'title')!.lines;
    expect(lines).toBe(3);
    // Two more lines push it down by two line heights.
    expect(longRed.top - shortRed.top).toBeGreaterThanOrEqual(2 * 75 - 2);
    expect(longRed.top - shortRed.top).toBeLessThanOrEqual(2 * 75 + 2);
  });

  it('draw a one-line text child at its size when its line is size × lineHeight tall (28 × 1.3)', async () => {
    // 28 × 1.3 is 36.4, and 36.4 / 1.3 is 27.999… in floating point: the stack gave the line
    // exactly its room, and the text was drawn at 27 px, under its minSize.
    const template = columnTemplate({
      layers: [
        title({ size: 28, minSize: 28, lineHeight: 1.3, maxLines: 1, height: 40 }),
        box('after', '#FF0000'),
      ],
    });
    const cut = `${LONG}, ${LONG}`;
    for (const value of [SHORT, cut]) {
      const report = await renderReport(jobFor(template, { title: value }));
      const fitted = report.layers.find((l) => l.id === 'title')!;
      expect(fitted.fittedSize, value).toBe(28);
      expect(fitted.truncated, value).toBe(value === cut);
    }
  });

  it('shrink text children when the children do not fit the stack, keeping all inside it', async () => {
    const template = columnTemplate({ height: 300 });
    const report = await renderReport(jobFor(template, { title: LONG }));
    const fitted = report.layers.find((l) => l.id === 'title')!;
    expect(fitted.fittedSize).toBeLessThan(60);
    expect(fitted.overflow).toBe(false);
    const pixels = await renderPixels(jobFor(template, { title: LONG }));
    const red = colourBounds(pixels, RED)!;
    // The stack ends at 100 + 300; its padding is 40.
    expect(red.bottom).toBeLessThanOrEqual(100 + 300 - 40);
    expect(red.bottom - red.top + 1).toBe(100);
    const text = darkRows(pixels, { x: 140, y: 100, width: 800, height: red.top - 100 })!;
    expect(text.top).toBeGreaterThanOrEqual(140);
    expect(text.bottom).toBeLessThan(red.top - 20 + 2);
  });

  it('align children across and justify them along the stack (horizontal, centred, at the end)', async () => {
    const template = layoutTemplate({
      layers: [
        {
          kind: 'stack',
          id: 'row',
          direction: 'horizontal',
          x: 40,
          y: 400,
          width: 1000,
          height: 300,
          gap: 30,
          align: 'center',
          justify: 'end',
          layers: [box('first', '#FF0000', 200, 100), box('second', '#0000FF', 150, 300)],
        },
      ],
    });
    const pixels = await renderPixels(jobFor(template));
    const red = colourBounds(pixels, RED)!;
    const blue = colourBounds(pixels, BLUE)!;
    expect(blue.right).toBe(40 + 1000 - 1);
    expect(blue.left).toBe(40 + 1000 - 150);
    expect(red.right).toBe(blue.left - 30 - 1);
    // Centred across: (300 − 100) / 2 below the stack's top.
    expect(red.top).toBe(400 + 100);
    expect(blue.top).toBe(400);
  });

  it('give a horizontal stack’s text child the width of its line, so the next child follows the word', async () => {
    const template = rowTemplate({
      x: 100,
      y: 100,
      width: 900,
      height: 100,
      gap: 10,
      layers: [title({ width: 700, height: 100 }), box('after', '#FF0000', 50, 50)],
    });
    const short = colourBounds(await renderPixels(jobFor(template, { title: 'Hi' })), RED)!;
    const longer = colourBounds(await renderPixels(jobFor(template, { title: 'Hi there' })), RED)!;
    expect(short.left).toBeLessThan(100 + 200);
    expect(longer.left - short.left).toBeGreaterThan(100);
  });

  it('draw a horizontal stack’s text child at the size it was measured at, never cut short in its own tight box', async () => {
    // The box drawn is as wide as the measured line; line breaking sums word widths, which
    // kerning and rounding can make a hair wider than the line measured whole. At its minimum
    // size the name was then drawn as "Phòng tập…" with 600 px to spare. Measured whole, "AV To
    // Wa" in Noto Serif at 92 px is 414 px exactly, and its words and spaces add up to a hair
    // more: a box of the whole line's width rounded up still cut it short.
    const cases: Array<[string, { family: string; weight: number }, number]> = [
      ['Phòng tập Nhịp Sống', { family: 'Montserrat', weight: 700 }, 32],
      ['Nhà sách Phương Nam', { family: 'Montserrat', weight: 700 }, 32],
      ['Pulse Studio', { family: 'Montserrat', weight: 700 }, 32],
      ['AV To Wa', { family: 'Noto Serif', weight: 400 }, 92],
    ];
    for (const [name, font, size] of cases) {
      const height = Math.ceil(size * 2);
      const template = rowTemplate({
        x: 96,
        y: 88,
        width: 760,
        height,
        gap: 16,
        align: 'center',
        layers: [
          box('logo', '#FF0000', 64, 64),
          title({ width: 680, height, font, size, minSize: size, maxLines: 1, fit: 'shrink' }),
        ],
      });
      const report = await renderReport(jobFor(template, { title: name }));
      const drawn = report.layers.find((layer) => layer.id === 'title');
      expect(drawn, name).toMatchObject({ fittedSize: size, lines: 1, truncated: false });
    }
  });

  it('lay nested stacks out inside their parent, and leave out hidden children with their gap', async () => {
    const template = layoutTemplate({
      textVariables: ['title', 'note'],
      layers: [
        {
          kind: 'stack',
          id: 'outer',
          x: 100,
          y: 100,
          width: 800,
          height: 800,
          gap: 50,
          layers: [
            {
              kind: 'stack',
              id: 'inner',
              direction: 'horizontal',
              x: 0,
              y: 0,
              width: 800,
              height: 100,
              gap: 20,
              layers: [box('a', '#0000FF', 100, 100), box('b', '#FF0000', 100, 100)],
            },
            {
              ...title({ id: 'note', text: '{{note}}' }),
              visibleWhen: { var: 'note', notEmpty: true },
            },
            box('c', '#00FF00', 300, 60),
          ],
        },
      ],
    });
    const pixels = await renderPixels(jobFor(template, { title: '', note: null }));
    const blue = colourBounds(pixels, BLUE)!;
    const red = colourBounds(pixels, RED)!;
    const green = colourBounds(pixels, [0, 255, 0])!;
    expect([blue.left, blue.top]).toEqual([100, 100]);
    expect([red.left, red.top]).toEqual([100 + 100 + 20, 100]);
    // The hidden note takes no room: green follows the row and one gap.
    expect(green.top).toBe(100 + 100 + 50);
    // Justified to the end, an empty text child adds no gap either: green ends at the bottom.
    const atEnd = layoutTemplate({
      textVariables: ['title'],
      layers: [
        {
          kind: 'stack',
          id: 'outer',
          x: 100,
          y: 100,
          width: 800,
          height: 800,
          gap: 50,
          justify: 'end',
          layers: [box('a', '#0000FF', 100, 100), title(), box('c', '#00FF00', 300, 60)],
        },
      ],
    });
    const end = await renderPixels(jobFor(atEnd, { title: '' }));
    expect(colourBounds(end, [0, 255, 0])!.bottom).toBe(100 + 800 - 1);
    expect(colourBounds(end, BLUE)!.bottom).toBe(100 + 800 - 60 - 50 - 1);
  });

  it('draw the same places in every output format, and on a later page', async () => {
    const template = columnTemplate();
    const png = colourBounds(await renderPixels(jobFor(template, { title: LONG })), RED)!;
    for (const format of ['jpeg', 'webp', 'avif'] as const) {
      const other = colourBounds(
        await renderPixels(jobFor(template, { title: LONG }, { format, quality: 95 })),
        RED,
        60,
      )!;
      expect(Math.abs(other.top - png.top), format).toBeLessThanOrEqual(1);
      expect(Math.abs(other.left - png.left), format).toBeLessThanOrEqual(1);
    }
    const pdf = colourBounds(
      await renderPixels(jobFor(template, { title: LONG }, { format: 'pdf' })),
      RED,
      60,
    )!;
    expect(Math.abs(pdf.top - png.top)).toBeLessThanOrEqual(2);
    expect(Math.abs(pdf.left - png.left)).toBeLessThanOrEqual(2);
    const paged = layoutTemplate({
      textVariables: ['title'],
      layers: [box('cover', '#0000FF', 100, 100)],
      morePages: [[columnTemplate().layouts.square!.layers[0] as never]],
    });
    const page2 = colourBounds(
      await renderPixels(jobFor(paged, { title: LONG }, { page: 2 })),
      RED,
    )!;
    expect(page2.top).toBe(png.top);
  });

  it('turn as one piece about the stack’s centre', async () => {
    const template = layoutTemplate({
      layers: [
        {
          kind: 'stack',
          id: 'turned',
          x: 340,
          y: 340,
          width: 400,
          height: 400,
          rotation: 90,
          layers: [box('top', '#FF0000', 400, 100)],
        },
      ],
    });
    const red = colourBounds(await renderPixels(jobFor(template)), RED)!;
    // The band along the stack's top ends up along its right side.
    expect(red.left).toBeGreaterThanOrEqual(340 + 300 - 1);
    expect(red.right).toBeLessThanOrEqual(340 + 400);
    expect(red.bottom - red.top).toBeGreaterThanOrEqual(398);
  });

  it('are refused in format 1, and their children’s ids and placeholders are checked', () => {
    const format1 = columnTemplate();
    const problems = templateReferenceProblems({ ...format1, schemaVersion: 1 });
    expect(problems.map((p) => p.path)).toContain('layouts.square.layers[0].kind');
    expect(problems.find((p) => p.path === 'layouts.square.layers[0].kind')?.message).toMatch(
      /needs schemaVersion 2/,
    );
    const clash = layoutTemplate({
      textVariables: ['title'],
      layers: [
        box('after', '#000000'),
        {
          kind: 'stack',
          id: 'column',
          x: 0,
          y: 0,
          width: 500,
          height: 500,
          layers: [title({ text: '{{missing}}' }), box('after', '#FF0000')],
        },
      ],
    });
    const paths = templateReferenceProblems(clash).map((p) => p.path);
    expect(paths).toContain('layouts.square.layers[1].layers[1].id');
    expect(paths).toContain('layouts.square.layers[1].layers[0].text');
    // Five stacks deep is one too many.
    let nested: Record<string, unknown> = box('leaf', '#000000');
    for (let depth = 5; depth >= 1; depth--) {
      nested = {
        kind: 'stack',
        id: `s${depth}`,
        x: 0,
        y: 0,
        width: 100,
        height: 100,
        layers: [nested],
      };
    }
    const deep = templateReferenceProblems(layoutTemplate({ layers: [nested] }));
    expect(deep.map((p) => p.path)).toEqual([
      'layouts.square.layers[0].layers[0].layers[0].layers[0].layers[0].layers',
    ]);
  });
});
