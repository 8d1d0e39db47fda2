import { describe, expect, it } from 'vitest';
import { createFilterKernel } from '../../main/engine/png-filter-kernel.js';

/** PNG's filters as the specification writes them, one byte at a time (alpha dropped). */
function referenceRow(rgba: Uint8Array, width: number, y: number, filter: number): number[] {
  const at = (x: number, yy: number, k: number) =>
    x < 0 || yy < 0 ? 0 : rgba[(yy * width + x) * 4 + k]!;
  const row = [filter];
  for (let x = 0; x < width; x++) {
    for (let k = 0; k < 3; k++) {
      const [v, a, b, c] = [at(x, y, k), at(x - 1, y, k), at(x, y - 1, k), at(x - 1, y - 1, k)];
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predicted = [0, a, b, 0, paeth][filter]!;
      row.push((v - predicted) & 255);
    }
  }
  return row;
}

/** Noise, flat runs and ramps, so every branch of Paeth's predictor is taken. */
function pixels(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  let seed = 11;
  for (let i = 0; i < rgba.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const x = (i >> 2) % width;
    rgba[i] = i % 4 === 3 ? 255 : x % 7 < 3 ? seed >>> 24 : (x * 37 + (i % 4) * 60) & 255;
  }
  return rgba;
}

describe('the PNG filter kernel', () => {
  it('filters every row like the PNG specification, for each filter and width', () => {
    const kernel = createFilterKernel();
    for (const width of [1, 2, 3, 4, 5, 6, 8, 9, 13, 37, 301]) {
      const height = 5;
      const rgba = pixels(width, height);
      const stride = width * 4;
      const rowBytes = 1 + width * 3;
      for (const filter of [0, 1, 2, 4]) {
        // Zeros (the row above the first), the pixels, then the output.
        const src = stride + 16;
        const dst = src + rgba.length + 16;
        const memory = kernel.reserve(dst + rowBytes * height + 16);
        memory.fill(0, 0, src);
        memory.set(rgba, src);
        kernel.filterRows(src, 0, dst, width, height, filter);
        for (let y = 0; y < height; y++) {
          const row = [...memory.subarray(dst + y * rowBytes, dst + (y + 1) * rowBytes)];
          expect(row, `width ${width} filter ${filter} row ${y}`).toEqual(
            referenceRow(rgba, width, y, filter),
          );
        }
      }
    }
  });

  it('keeps its bytes when its memory grows between calls', () => {
    const kernel = createFilterKernel();
    const small = kernel.reserve(100);
    small[50] = 7;
    const grown = kernel.reserve(5 * 65536);
    expect(grown.length).toBeGreaterThanOrEqual(5 * 65536);
    expect(grown[50]).toBe(7);
  });
});
