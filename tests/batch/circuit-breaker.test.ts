import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../main/batch/circuit-breaker.js';

describe('circuit breaker', () => {
  it('trips after 10 consecutive failures', () => {
    const breaker = new CircuitBreaker();
    for (let i = 0; i < 9; i += 1) expect(breaker.record(false)).toBeNull();
    expect(breaker.record(false)).toMatch(/10 rows in a row failed/);
  });

  it('trips when more than half of the last 50 rows failed, not at exactly half', () => {
    const breaker = new CircuitBreaker();
    let tripped: string | null = null;
    for (let i = 0; i < 50; i += 1) tripped = breaker.record(i % 2 === 0) ?? tripped;
    expect(tripped).toBeNull();
    // The oldest row (a success) leaves the window: 26 of the last 50 failed.
    expect(breaker.record(false)).toBe('26 of the last 50 rows failed');
  });

  it('does not trip on scattered failures', () => {
    const breaker = new CircuitBreaker();
    for (let i = 0; i < 500; i += 1) expect(breaker.record(i % 5 !== 0)).toBeNull();
  });

  it("continues from a batch's memory, tripping at the row where the run of failures reaches 10", () => {
    // Kept with the batch: 6 failures so far (after a success), in a window of 50.
    const breaker = new CircuitBreaker(undefined, { recent: '1111000000', consecutiveFailures: 6 });
    // The group's 4th failure is the 10th in a row: the reason names 10, not the group's length.
    expect(breaker.recordAll('00000000')).toBe('10 rows in a row failed');
  });

  it('counts a window carried over from the memory', () => {
    const memory = { recent: '10'.repeat(25), consecutiveFailures: 1 };
    expect(new CircuitBreaker(undefined, memory).recordAll('1')).toBeNull();
    // The oldest success leaves the window: 26 of the last 50 failed.
    expect(new CircuitBreaker(undefined, memory).recordAll('0')).toBe(
      '26 of the last 50 rows failed',
    );
  });
});
