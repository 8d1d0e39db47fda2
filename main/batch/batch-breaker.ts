import type { CoreData } from '../data/core-data.js';
import type { RowOutcome } from '../data/data-commands.js';
import { CircuitBreaker, DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker.js';

/**
 * A batch's circuit breaker, the same on one machine and on twenty: each committed group of
 * rows is added to the memory kept with the batch (the data port's recordRowOutcomes), and the
 * breaker decides from that memory, row by row in commit order. Ten rows failing in a row trip it
 * whether one process drew them or several workers did, and a batch that resumes after a restart
 * remembers the rows before it. Between commits, this process's own rows are counted on top of
 * the last memory it saw, so a batch whose rows fail in milliseconds stops at once instead of
 * after a whole commit group. The first trip's reason is kept.
 */
export class BatchBreaker {
  private reason: string | null = null;
  private local: CircuitBreaker;

  constructor(
    private readonly data: CoreData,
    private readonly batchId: string,
    private readonly options: CircuitBreakerOptions = DEFAULT_BREAKER,
  ) {
    this.local = new CircuitBreaker(options);
  }

  /** One row of this process finished (not yet committed). */
  finished(outcome: RowOutcome): string | null {
    this.reason ??= this.local.record(outcome.ok);
    return this.reason;
  }

  /** Why the batch should stop, once a group tripped the breaker; null until then. */
  get tripped(): string | null {
    return this.reason;
  }

  /** Adds a committed group (in the order its rows finished); returns the trip reason, if any. */
  async committed(group: readonly RowOutcome[]): Promise<string | null> {
    const finished = group.map((outcome) => (outcome.ok ? '1' : '0')).join('');
    const before = await this.data.commands.recordRowOutcomes(
      this.batchId,
      finished,
      this.options.window,
    );
    const breaker = new CircuitBreaker(this.options, before);
    this.reason ??= breaker.recordAll(finished);
    // From now on, this process counts on top of the memory as it stands after this group.
    this.local = breaker;
    return this.reason;
  }
}
