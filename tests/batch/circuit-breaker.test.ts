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
});
