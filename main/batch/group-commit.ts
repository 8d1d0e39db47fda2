import type { Database } from '../store/open-database.js';

/**
 * Commits the writes of several finished rows in one SQLite transaction. The ledger runs with
 * synchronous=FULL, so every commit is an fsync on the thread that also serves the API; grouping
 * rows that finish within a few milliseconds keeps that cost per group instead of per row. Each
 * row's writes stay atomic (they are inside the group's transaction), and if one row's writes
 * fail, the group is retried row by row so the others still commit.
 */
export class GroupCommitter {
  private pending: { work: () => void; resolve: () => void; reject: (error: unknown) => void }[] =
    [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly maxDelayMs = 10,
    private readonly maxGroup = 64,
  ) {}

  commit(work: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      if (this.pending.length >= this.maxGroup) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs);
    });
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.pending.splice(0);
    if (items.length === 0) return;
    try {
      this.db.transaction(() => {
        for (const item of items) item.work();
      })();
      for (const item of items) item.resolve();
    } catch {
      for (const item of items) {
        try {
          this.db.transaction(item.work)();
          item.resolve();
        } catch (error) {
          item.reject(error);
        }
      }
    }
  }
}
