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

  constructor(private readonly options: CircuitBreakerOptions = DEFAULT_BREAKER) {}

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
