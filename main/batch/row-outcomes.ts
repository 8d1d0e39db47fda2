import type { CoreData } from '../data/core-data.js';
import type { RowOutcome, RowOutcomeContext } from '../data/data-commands.js';

/** How outcomes are grouped into one commit: a store says what suits it (CoreData.commitGroup). */
export interface CommitGroup {
  /** A group commits once it holds this many rows… */
  rows: number;
  /** …or this long after its first row finished. */
  windowMs: number;
}

/**
 * Commits a run's row outcomes in groups, in the order they finished: everything that finished
 * within the window (or the first `rows` of it) shares one transaction, so one fsync (SQLite) or
 * one round trip (PostgreSQL) covers many rows. Groups commit one after another, so the order the
 * breaker sees is the order rows finished. The first failed commit stops further commits (the
 * rows stay leased or pending, to be drawn again); the runner reads `failure` and decides.
 * The embedded runner and the cluster's chunk processor both commit through this.
 */
export class RowOutcomes {
  private pending: RowOutcome[] = [];
  private timer: NodeJS.Timeout | undefined;
  private committing: Promise<void> = Promise.resolve();
  private failed: { error: unknown } | undefined;

  constructor(
    private readonly data: CoreData,
    private readonly context: RowOutcomeContext,
    private readonly group: CommitGroup,
    /** Told of each committed group, in order (progress, the breaker). */
    private readonly committed: (outcomes: readonly RowOutcome[]) => unknown = () => undefined,
  ) {}

  /** The first commit that failed, once one has. */
  get failure(): { error: unknown } | undefined {
    return this.failed;
  }

  add(outcome: RowOutcome): void {
    this.pending.push(outcome);
    if (this.pending.length >= this.group.rows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.group.windowMs);
  }

  /** Commits what is pending; resolves when every group so far has committed (or one failed). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const group = this.pending;
    this.pending = [];
    if (group.length > 0)
      this.committing = this.committing.then(async () => {
        if (this.failed) return;
        try {
          await this.data.commands.commitRows(this.context, group);
          await this.committed(group);
        } catch (error) {
          this.failed = { error };
        }
      });
    return this.committing;
  }
}
