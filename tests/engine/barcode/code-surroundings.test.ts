import { describe, expect, it } from 'vitest';
import { layersAroundCodes } from '../../../main/engine/barcode/code-surroundings.js';
import type { DrawnLayer } from '../../../main/engine/stack-layout.js';

const qr = {
  kind: 'qr',
  id: 'qr',
  x: 600,
  y: 600,
  width: 200,
  height: 200,
  value: 'https://example.org',
} as DrawnLayer;

const shape = (id: string, box: Partial<DrawnLayer> & Record<string, unknown>) =>
  ({ kind: 'shape', id, shape: 'rectangle', fill: '#000000', ...box }) as DrawnLayer;

const ids = (layers: DrawnLayer[]) => layers.map((layer) => layer.id);

describe('the layers around codes', () => {
  it('keeps the codes and what overlaps them, in drawing order, and leaves the rest out', () => {
    const layers = [
      shape('photo-under', { x: 0, y: 0, width: 1080, height: 1080 }),
      shape('headline-far', { x: 40, y: 40, width: 500, height: 120 }),
      qr,
      shape('sticker-over', { x: 650, y: 650, width: 60, height: 60 }),
    ];
    expect(ids(layersAroundCodes(layers))).toEqual(['photo-under', 'qr', 'sticker-over']);
  });

  it('keeps a layer that reaches a code only by its quiet zone, its stroke or its turn', () => {
    const layers = [
      qr,
      // 20 px left of the code: inside its quiet zone.
      shape('near', { x: 480, y: 650, width: 100, height: 40 }),
      // Its box ends 150 px left of the surroundings; its 400 px stroke reaches in.
      shape('stroked', {
        x: 0,
        y: 650,
        width: 398,
        height: 40,
        stroke: { paint: '#000', width: 400 },
      }),
      // A long bar 160 px above the code, turned to cross it.
      shape('turned', { x: 300, y: 400, width: 600, height: 40, rotation: 45 }),
      shape('away', { x: 0, y: 0, width: 300, height: 40 }),
    ];
    expect(ids(layersAroundCodes(layers))).toEqual(['qr', 'near', 'stroked', 'turned']);
  });

  it('draws nothing when the page has no code', () => {
    expect(layersAroundCodes([shape('only', { x: 0, y: 0, width: 10, height: 10 })])).toEqual([]);
  });
});
