import type { Database } from './open-database.js';

interface PendingWork {
  work: () => unknown;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/**
 * Commits the writes of several finished renders in one SQLite transaction. The ledger runs with
 * synchronous=FULL, so every commit is an fsync on the thread that also serves the API; grouping
 * work that finishes close together keeps that cost per group instead of per render. Each piece of
 * work stays atomic (it runs inside the group's transaction), and if one fails, the group is
 * retried piece by piece so the others still commit.
 *
 * `maxDelayMs` 0 groups only what is queued within one turn of the event loop: a lone render waits
 * for nothing, while renders that finished during the previous fsync share the next one.
 */
export class GroupCommitter {
  private pending: PendingWork[] = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly maxDelayMs = 10,
    private readonly maxGroup = 64,
  ) {}

  /** Runs `work` inside the next group's transaction; resolves with its result once committed. */
  commit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: never) => void, reject });
      if (this.pending.length >= this.maxGroup) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        if (this.maxDelayMs === 0) setImmediate(() => this.flush());
        else this.timer = setTimeout(() => this.flush(), this.maxDelayMs);
      }
    });
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    const items = this.pending.splice(0);
    if (items.length === 0) return;
    let results: unknown[];
    try {
      results = this.db.transaction(() => items.map((item) => item.work()))();
    } catch {
      for (const item of items) {
        try {
          item.resolve(this.db.transaction(item.work)() as never);
        } catch (error) {
          item.reject(error);
        }
      }
      return;
    }
    items.forEach((item, i) => item.resolve(results[i] as never));
  }
}
