import type { BreakerMemory } from '../data/data-commands.js';

/**
 * Stops a batch that is failing for a systematic reason (a missing images folder, a broken
 * template) instead of burning through every row: DESIGN §4's default trips after 10
 * consecutive failures, or when more than half of the last 50 rows failed.
 */
export interface CircuitBreakerOptions {
  consecutiveFailures: number;
  window: number;
  failureRatio: number;
}

export const DEFAULT_BREAKER: CircuitBreakerOptions = {
  consecutiveFailures: 10,
  window: 50,
  failureRatio: 0.5,
};

export class CircuitBreaker {
  private consecutive = 0;
  private readonly recent: boolean[] = [];
  private failuresInWindow = 0;

  /** `memory`: what the batch's breaker remembers already (BreakerMemory, kept with the batch). */
  constructor(
    private readonly options: CircuitBreakerOptions = DEFAULT_BREAKER,
    memory?: BreakerMemory,
  ) {
    if (!memory) return;
    for (const outcome of memory.recent.slice(-options.window)) {
      this.recent.push(outcome === '1');
      if (outcome !== '1') this.failuresInWindow += 1;
    }
    this.consecutive = memory.consecutiveFailures;
  }

  /** Records rows in the order they finished ('1'/'0'); returns the reason of the first trip. */
  recordAll(finished: string): string | null {
    let tripped: string | null = null;
    for (const outcome of finished) tripped ??= this.record(outcome === '1');
    return tripped;
  }

  /** Records one row; returns a reason when the breaker trips. */
  record(succeeded: boolean): string | null {
    this.consecutive = succeeded ? 0 : this.consecutive + 1;
    this.recent.push(succeeded);
    if (!succeeded) this.failuresInWindow += 1;
    if (this.recent.length > this.options.window) {
      if (this.recent.shift() === false) this.failuresInWindow -= 1;
    }
    if (this.consecutive >= this.options.consecutiveFailures) {
      return `${this.consecutive} rows in a row failed`;
    }
    if (
      this.recent.length === this.options.window &&
      this.failuresInWindow / this.options.window > this.options.failureRatio
    ) {
      return `${this.failuresInWindow} of the last ${this.options.window} rows failed`;
    }
    return null;
  }
}
