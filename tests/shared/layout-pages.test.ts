import { describe, expect, it } from 'vitest';
import { layoutLayers, placedLayers } from '../../shared/layout-pages.js';
import { Layout } from '../../shared/template-format.js';

const shape = (id: string) => ({
  kind: 'shape',
  id,
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  shape: 'rectangle',
});

const layout = Layout.parse({
  width: 1080,
  height: 1080,
  background: '#FFFFFF',
  layers: [
    shape('a'),
    {
      kind: 'stack',
      id: 'outer',
      x: 0,
      y: 0,
      width: 500,
      height: 500,
      layers: [
        shape('b'),
        { kind: 'stack', id: 'inner', x: 0, y: 0, width: 100, height: 100, layers: [shape('c')] },
      ],
    },
  ],
  morePages: [
    {
      layers: [
        { kind: 'stack', id: 'back', x: 0, y: 0, width: 9, height: 9, layers: [shape('d')] },
      ],
    },
  ],
});

describe('walking a layout’s layers', () => {
  it('lists every stack’s children after it, at any depth and on every page', () => {
    expect(layoutLayers(layout).map((l) => l.id)).toEqual([
      'a',
      'outer',
      'b',
      'inner',
      'c',
      'back',
      'd',
    ]);
  });

  it('gives each child its path in the template JSON', () => {
    expect(placedLayers('square', layout).map((p) => `${p.layer.id} ${p.path}`)).toEqual([
      'a layouts.square.layers[0]',
      'outer layouts.square.layers[1]',
      'b layouts.square.layers[1].layers[0]',
      'inner layouts.square.layers[1].layers[1]',
      'c layouts.square.layers[1].layers[1].layers[0]',
      'back layouts.square.morePages[0].layers[0]',
      'd layouts.square.morePages[0].layers[0].layers[0]',
    ]);
  });
});
