import { describe, expect, it } from 'vitest';
import { layersReaching } from '../../../main/engine/barcode/code-surroundings.js';
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

/** Where the QR code above is read: its box and a reader's margin around it. */
const read = { left: 568, top: 568, right: 832, bottom: 832 };

const shape = (id: string, box: Partial<DrawnLayer> & Record<string, unknown>) =>
  ({ kind: 'shape', id, shape: 'rectangle', fill: '#000000', ...box }) as DrawnLayer;

const ids = (layers: DrawnLayer[]) => layers.map((layer) => layer.id);

describe('the layers reaching where codes are read', () => {
  it('keeps the codes and what overlaps them, in drawing order, and leaves the rest out', () => {
    const layers = [
      shape('photo-under', { x: 0, y: 0, width: 1080, height: 1080 }),
      shape('headline-far', { x: 40, y: 40, width: 500, height: 120 }),
      qr,
      shape('sticker-over', { x: 650, y: 650, width: 60, height: 60 }),
    ];
    expect(ids(layersReaching(layers, [read]))).toEqual(['photo-under', 'qr', 'sticker-over']);
  });

  it('keeps a layer that reaches the area only by its stroke or its turn', () => {
    const layers = [
      qr,
      // 20 px left of the code: inside the reader's margin.
      shape('near', { x: 480, y: 650, width: 100, height: 40 }),
      // Its box ends 170 px left of the area; its 400 px stroke reaches in.
      shape('stroked', {
        x: 0,
        y: 650,
        width: 398,
        height: 40,
        stroke: { paint: '#000', width: 400 },
      }),
      // A long bar 160 px above the code, turned to cross it.
      shape('turned', { x: 300, y: 400, width: 600, height: 40, rotation: 45 }),
      // Just outside: the same box unturned, and a thin stroke that stops short.
      shape('flat', { x: 300, y: 400, width: 600, height: 40 }),
      shape('thin', {
        x: 0,
        y: 650,
        width: 398,
        height: 40,
        stroke: { paint: '#000', width: 20 },
      }),
      shape('away', { x: 0, y: 0, width: 300, height: 40 }),
      // Touching the area's edge without entering it.
      shape('edge', { x: 832, y: 600, width: 40, height: 40 }),
    ];
    expect(ids(layersReaching(layers, [read]))).toEqual(['qr', 'near', 'stroked', 'turned']);
  });

  it('keeps a layer that reaches any of the areas, and none between them', () => {
    const other = { left: 0, top: 0, right: 100, bottom: 100 };
    const layers = [
      shape('corner', { x: 50, y: 50, width: 20, height: 20 }),
      // Inside the box around both areas, outside each.
      shape('between', { x: 300, y: 300, width: 100, height: 100 }),
      qr,
    ];
    expect(ids(layersReaching(layers, [other, read]))).toEqual(['corner', 'qr']);
    expect(layersReaching(layers, [])).toEqual([]);
  });
});
