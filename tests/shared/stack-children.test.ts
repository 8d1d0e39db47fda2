import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  duplicateChild,
  findLayer,
  isLastChild,
  moveChild,
  removeChild,
  updateLayerIn,
} from '../../shared/stack-children.js';
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
  height: 100,
  direction: 'vertical',
  gap: 0,
  padding: 0,
  align: 'start',
  justify: 'start',
  layers,
});

/** A page: a shape, then a stack of a, an inner stack (b1, b2) and c. */
const page = (): Layer[] => [
  shape('top'),
  stack('body', [shape('a'), stack('inner', [shape('b1'), shape('b2')]), shape('c')]),
];

const ids = (layers: Layer[]): unknown =>
  layers.map((l) => (l.kind === 'stack' ? { [l.id]: ids(l.layers) } : l.id));

describe('editing layers inside stacks', () => {
  it('finds a child at any depth, with its path and the stack holding it', () => {
    const layers = page();
    expect(findLayer(layers, 'top')).toMatchObject({ path: [0], parent: null });
    expect(findLayer(layers, 'c')).toMatchObject({ path: [1, 2], parent: { id: 'body' } });
    expect(findLayer(layers, 'b2')).toMatchObject({ path: [1, 1, 1], parent: { id: 'inner' } });
    expect(findLayer(layers, 'nope')).toBeNull();
    expect(ancestorsOf(layers, 'b1').map((s) => s.id)).toEqual(['body', 'inner']);
    expect(ancestorsOf(layers, 'top')).toEqual([]);
  });

  it('changes a nested child and keeps every other reference', () => {
    const layers = page();
    const next = updateLayerIn(layers, 'b1', (l) => ({ ...l, opacity: 0.5 }));
    expect(findLayer(next, 'b1')?.layer.opacity).toBe(0.5);
    expect(next[0]).toBe(layers[0]);
    const body = next[1] as Extract<Layer, { kind: 'stack' }>;
    const before = layers[1] as Extract<Layer, { kind: 'stack' }>;
    expect(body.layers[0]).toBe(before.layers[0]);
    expect(body.layers[2]).toBe(before.layers[2]);
    // A change that changes nothing leaves the very same array (no undo step).
    expect(updateLayerIn(layers, 'b1', (l) => l)).toBe(layers);
    expect(updateLayerIn(layers, 'nope', (l) => ({ ...l, opacity: 0 }))).toBe(layers);
  });

  it('moves a child up and down within its stack, and not past either end', () => {
    const layers = page();
    expect(ids(moveChild(layers, 'c', -1))).toEqual([
      'top',
      { body: ['a', 'c', { inner: ['b1', 'b2'] }] },
    ]);
    expect(ids(moveChild(layers, 'b1', 1))).toEqual([
      'top',
      { body: ['a', { inner: ['b2', 'b1'] }, 'c'] },
    ]);
    expect(moveChild(layers, 'a', -1)).toBe(layers);
    expect(moveChild(layers, 'c', 1)).toBe(layers);
    // A top-level layer is not a child: restacking it is the layers panel's own.
    expect(moveChild(layers, 'top', 1)).toBe(layers);
  });

  it('removes a child, but refuses to empty a stack', () => {
    const layers = page();
    expect(ids(removeChild(layers, 'b2') as Layer[])).toEqual([
      'top',
      { body: ['a', { inner: ['b1'] }, 'c'] },
    ]);
    const one = removeChild(layers, 'b2') as Layer[];
    expect(isLastChild(one, 'b1')).toBe(true);
    expect(isLastChild(layers, 'b1')).toBe(false);
    expect(removeChild(one, 'b1')).toBe('last');
    expect(removeChild(layers, 'top')).toBe(layers);
  });

  it('duplicates a child right after it, with the ids the copier gives', () => {
    const layers = page();
    const done = duplicateChild(layers, 'a', (l) => ({ ...l, id: `${l.id}_2` }));
    expect(done?.copy.id).toBe('a_2');
    expect(ids(done!.layers)).toEqual([
      'top',
      { body: ['a', 'a_2', { inner: ['b1', 'b2'] }, 'c'] },
    ]);
    expect(duplicateChild(layers, 'top', (l) => l)).toBeNull();
  });
});
