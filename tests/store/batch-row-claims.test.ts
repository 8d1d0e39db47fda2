import { describe, expect, it } from 'vitest';
import { newBatch, sourceRecords } from '../data/batch-fixtures.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('claiming batch rows', () => {
  it('costs no more after most of a large batch is done than at its start', () => {
    const { batches } = tempStore();
    const total = 30_000;
    batches.create(newBatch('bat_claims', total));
    for (let from = 0; from < total; from += 5_000)
      batches.enqueue('bat_claims', sourceRecords(5_000, from));
    const lease = Date.now() + 60_000;
    const timeClaims = (count: number): number => {
      const times: number[] = [];
      for (let i = 0; i < count; i += 1) {
        const started = performance.now();
        const rows = batches.claim('bat_claims', 4, lease);
        times.push(performance.now() - started);
        for (const row of rows)
          batches.complete('bat_claims', row.rowIndex, {
            renderId: row.renderId,
            outputKey: `batches/bat_claims/${row.rowIndex}.png`,
          });
      }
      return median(times);
    };

    const atStart = timeClaims(50);
    // Finish all but the last rows: a claim that walked past finished rows would now read ~30,000.
    let left = total - 200;
    while (left > 200) {
      const rows = batches.claim('bat_claims', 500, lease);
      for (const row of rows)
        batches.complete('bat_claims', row.rowIndex, {
          renderId: row.renderId,
          outputKey: `batches/bat_claims/${row.rowIndex}.png`,
        });
      left -= rows.length;
    }
    const nearEnd = timeClaims(50);

    // Every row was claimed once, the last ones by the timed claims.
    expect(batches.counts('bat_claims').succeeded).toBe(total);
    expect(batches.claim('bat_claims', 4, lease)).toEqual([]);
    // Generous against a busy machine; the walk it guards against was ~100× slower.
    expect(nearEnd).toBeLessThan(Math.max(5 * atStart, 1));
  });
});
