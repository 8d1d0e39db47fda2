/**
 * Per-key fixed-window limiter (DESIGN §4: 60 s window, default 600 requests). Every request
 * counts, idempotent replays included, because each costs the server work.
 */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (≥ 1). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(id: string): RateLimitState {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(id, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    window.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds,
    };
  }

  private prune(now: number): void {
    for (const [id, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(id);
    }
  }
}
