import { describe, expect, it } from 'vitest';
import { planChunks } from '../../main/cluster/chunk-plan.js';

describe('planChunks', () => {
  it('cuts rows 0..total into chunks of size rows', () => {
    expect(planChunks(5, 2)).toEqual([
      { n: 0, from: 0, to: 2 },
      { n: 1, from: 2, to: 4 },
      { n: 2, from: 4, to: 5 },
    ]);
  });

  it('spans the chosen rows of a batch of some rows by their own indexes, size of them a chunk', () => {
    expect(planChunks(5, 2, [1, 4, 9, 40, 41])).toEqual([
      { n: 0, from: 1, to: 5 },
      { n: 1, from: 9, to: 41 },
      { n: 2, from: 41, to: 42 },
    ]);
    expect(planChunks(2, 50, [3, 70_000])).toEqual([{ n: 0, from: 3, to: 70_001 }]);
  });
});
