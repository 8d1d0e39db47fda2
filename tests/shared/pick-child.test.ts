import { describe, expect, it } from 'vitest';
import type { DrawnBox } from '../../shared/drawn-boxes.js';
import { boxContains, drawnBoxOf, pickChild } from '../../shared/pick-child.js';
import type { Layer } from '../../shared/template-format.js';

const shape = (id: string): Layer => ({
  kind: 'shape',
  id,
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  shape: 'rectangle',
  radius: 0,
});

const stack = (id: string, layers: Layer[]): Layer => ({
  kind: 'stack',
  id,
  x: 0,
  y: 0,
  width: 100,
  height: 300,
  direction: 'vertical',
  gap: 0,
  padding: 0,
  align: 'start',
  justify: 'start',
  layers,
});

const layers: Layer[] = [
  shape('top'),
  stack('body', [shape('a'), stack('inner', [shape('b1'), shape('b2')])]),
];

/** a on 0–100, b1 on 100–150 and b2 on 150–200 (inner is their union), as the engine drew them. */
const drawn = new Map<string, DrawnBox>(
  [
    { id: 'a', x: 0, y: 0, width: 100, height: 100 },
    { id: 'b1', x: 0, y: 100, width: 100, height: 50 },
    { id: 'b2', x: 0, y: 150, width: 80, height: 50 },
  ].map((b) => [b.id, b]),
);
const boxOf = (layer: Layer) => drawnBoxOf(layer, drawn);

describe('picking a layer inside a stack', () => {
  it('outlines a nested stack by the box around its drawn children', () => {
    const inner = (layers[1] as Extract<Layer, { kind: 'stack' }>).layers[1]!;
    expect(boxOf(inner)).toEqual({ id: 'inner', x: 0, y: 100, width: 100, height: 100 });
    expect(boxOf(shape('hidden'))).toBeNull();
  });

  it('tests a point against a turned box as drawn', () => {
    const box = { id: 'x', x: 0, y: 40, width: 100, height: 20, rotation: 90 };
    expect(boxContains(box, { x: 50, y: 5 })).toBe(true);
    expect(boxContains(box, { x: 5, y: 50 })).toBe(false);
  });

  it('picks a child of the selected stack, then drills into a nested one', () => {
    expect(pickChild(layers, 'body', 'body', { x: 50, y: 50 }, boxOf)).toBe('a');
    expect(pickChild(layers, 'body', 'body', { x: 50, y: 170 }, boxOf)).toBe('inner');
    expect(pickChild(layers, 'body', 'inner', { x: 50, y: 170 }, boxOf)).toBe('b2');
  });

  it('picks a sibling, or a child of an outer stack, from a selected child', () => {
    expect(pickChild(layers, 'body', 'b1', { x: 50, y: 170 }, boxOf)).toBe('b2');
    expect(pickChild(layers, 'body', 'b1', { x: 50, y: 20 }, boxOf)).toBe('a');
  });

  it('picks nothing when the stack is not being edited or the point is on no child', () => {
    expect(pickChild(layers, 'body', null, { x: 50, y: 50 }, boxOf)).toBeNull();
    expect(pickChild(layers, 'body', 'top', { x: 50, y: 50 }, boxOf)).toBeNull();
    expect(pickChild(layers, 'body', 'body', { x: 50, y: 250 }, boxOf)).toBeNull();
  });
});
