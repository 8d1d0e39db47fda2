import { describe, expect, it } from 'vitest';
import { acquireCanvas, releaseCanvas } from '../../main/engine/canvas-pool.js';

describe('canvas pool', () => {
  it('hands a released canvas back with a fresh 2D state and transparent pixels', () => {
    const canvas = acquireCanvas(31, 17);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(0, 0, 31, 17);
    ctx.translate(5, 5);
    ctx.globalAlpha = 0.3;
    ctx.font = 'bold 40px serif';
    ctx.beginPath();
    ctx.rect(0, 0, 2, 2);
    ctx.clip();
    releaseCanvas(canvas);

    const again = acquireCanvas(31, 17);
    expect(again).toBe(canvas);
    const fresh = again.getContext('2d');
    const transform = fresh.getTransform();
    expect([transform.a, transform.b, transform.c, transform.d, transform.e, transform.f]).toEqual([
      1, 0, 0, 1, 0, 0,
    ]);
    expect(fresh.globalAlpha).toBe(1);
    expect(fresh.font).toBe('10px sans-serif');
    expect(fresh.getImageData(0, 0, 31, 17).data.every((byte) => byte === 0)).toBe(true);
    // No clip survives: a fill reaches the far corner.
    fresh.fillStyle = '#00ff00';
    fresh.fillRect(0, 0, 31, 17);
    expect([...fresh.getImageData(30, 16, 1, 1).data]).toEqual([0, 255, 0, 255]);
  });

  it('gives canvases of the asked size only, and never one canvas to two holders', () => {
    const a = acquireCanvas(23, 11);
    releaseCanvas(a);
    releaseCanvas(a);
    const other = acquireCanvas(11, 23);
    expect(other).not.toBe(a);
    expect([other.width, other.height]).toEqual([11, 23]);
    const first = acquireCanvas(23, 11);
    const second = acquireCanvas(23, 11);
    expect(first).toBe(a);
    expect(second).not.toBe(a);
  });

  it('keeps the sizes handed back most recently, and lets go of the others', () => {
    const kept = Array.from({ length: 9 }, (_, i) => acquireCanvas(40 + i, 9));
    // Each handed back in turn, the first again last: the second is the one let go.
    for (const canvas of [...kept, kept[0]!]) releaseCanvas(canvas);
    const again = kept.map((canvas) => acquireCanvas(canvas.width, canvas.height));
    expect(again.map((canvas, i) => canvas === kept[i])).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
