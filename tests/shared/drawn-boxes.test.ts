import { describe, expect, it } from 'vitest';
import { drawnBoxesOf, parseDrawnBoxes } from '../../shared/drawn-boxes.js';

describe('drawn boxes in a preview header', () => {
  it('round to tenths of a pixel and keep a turn only when there is one', () => {
    const boxes = drawnBoxesOf([
      { id: 'a', x: 1.234, y: 2.26, width: 10, height: 5.05, rotation: 0 },
      { id: 'b', x: 0, y: 0, width: 1, height: 1, rotation: 12.345 },
    ]);
    expect(boxes).toEqual([
      { id: 'a', x: 1.2, y: 2.3, width: 10, height: 5.1 },
      { id: 'b', x: 0, y: 0, width: 1, height: 1, rotation: 12.3 },
    ]);
    expect(parseDrawnBoxes(JSON.stringify(boxes))).toEqual(boxes);
  });

  it('read nothing from a missing or malformed header, and skip malformed boxes', () => {
    expect(parseDrawnBoxes(null)).toEqual([]);
    expect(parseDrawnBoxes('not json')).toEqual([]);
    expect(parseDrawnBoxes('{"id":"a"}')).toEqual([]);
    expect(
      parseDrawnBoxes(
        JSON.stringify([
          { id: 'a', x: 0, y: 0, width: 1 },
          { id: 'b', x: 0, y: 0, width: 2, height: 3 },
        ]),
      ),
    ).toEqual([{ id: 'b', x: 0, y: 0, width: 2, height: 3 }]);
  });
});
